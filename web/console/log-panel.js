// The server's log (warnings stand out), newest at the bottom, bounded.

import { $, h, fill, clockTime } from './dom.js';

const KEEP = 300;

export function createLogPanel() {
  const list = $('log-list');
  const warnOnly = /** @type {HTMLInputElement} */ ($('log-warn-only'));
  warnOnly.addEventListener('change', () => list.classList.toggle('warn-only', warnOnly.checked));

  const row = (e) =>
    h(
      'li',
      { class: e.level },
      h('time', { text: clockTime(e.t) }),
      // Firefox drops the space between flex items from the row's text, so a screen reader said
      // "03:41:28INFO"; this separator is read, not shown.
      h('span', { class: 'sr-only', text: ', ' }),
      h('span', { class: 'lvl', text: e.level }),
      h('span', { class: 'msg', text: e.msg }),
    );

  function scrollIfAtBottom(wasAtBottom) {
    if (wasAtBottom) list.scrollTop = list.scrollHeight;
  }
  const atBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight < 24;

  return {
    set(entries) {
      if (!entries.length) {
        fill(list, h('li', { class: 'empty', text: 'Nothing logged yet.' }));
        return;
      }
      fill(list, ...entries.slice(-KEEP).map(row));
      list.scrollTop = list.scrollHeight;
    },
    add(entries) {
      const bottom = atBottom();
      list.querySelector('.empty')?.remove();
      for (const e of entries) list.append(row(e));
      while (list.childElementCount > KEEP) list.firstElementChild?.remove();
      scrollIfAtBottom(bottom);
    },
  };
}
