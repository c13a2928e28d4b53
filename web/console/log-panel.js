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
      h('span', { class: 'time', text: clockTime(e.t) }),
      // Browsers join a flex row's items with no space between them in what a screen reader reads
      // ("06:11:25INFOprompt …"); these separators are read, not shown. No-break spaces, because a
      // plain one at the end of its own box is dropped too.
      h('span', { class: 'sr-only', text: ',\u00a0' }),
      h('span', { class: 'lvl', text: e.level }),
      h('span', { class: 'sr-only', text: ':\u00a0' }),
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
