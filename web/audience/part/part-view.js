// Everything the musician sees on the part page: the picker, bar:beat with the beat flash, the
// section, the countdown to the next cue and what it says, and the "next up" list. Only
// textContent and classes are written (never HTML), so nothing from the network can inject markup.

import { cueText } from '#core/client/part-plan.js';
import { createConnectionPill } from '../src/connection-pill.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const FLASH_MS = 120;
const NEXT_UP = 4;

/** @typedef {import('#core/client/part-plan.js').PartCue & { inBeats: number }} ShownCue */

/** The part page's DOM (part/index.html): returns the functions main.js draws with. */
export function createPartView() {
  const pill = createConnectionPill();
  let flashTimer = null;
  let lastBeats = 0;

  const setText = (node, text) => {
    const t = text ?? '';
    if (node.textContent !== t) node.textContent = t;
  };
  const where = (c) => `${c.bar}:${c.beat}`;
  const beatsWord = (n) => (n === 1 ? 'beat' : 'beats');

  function dots(beats, beat) {
    const box = $('beats');
    if (beats !== lastBeats) {
      box.replaceChildren(...Array.from({ length: Math.min(beats, 32) }, () => document.createElement('span')));
      lastBeats = beats;
    }
    [...box.children].forEach((dot, i) => {
      dot.classList.toggle('on', i < beat);
      dot.classList.toggle('down', i === 0);
    });
  }

  return {
    /**
     * The picker: the score's parts and "All parts".
     * @param {Array<{ id: string, name: string, osc?: string }>} parts
     * @param {(id: string) => void} onPick
     */
    picker(parts, onPick) {
      const buttons = [...parts, { id: '*', name: 'All parts', osc: 'every cue' }].map((p) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.part = p.id;
        b.append(p.name);
        const small = document.createElement('small');
        small.textContent = p.id === '*' ? 'every OSC cue in the score' : `OSC ${p.osc}`;
        b.append(small);
        b.addEventListener('click', () => onPick(p.id));
        return b;
      });
      $('part-list').replaceChildren(...buttons);
    },
    /** @param {boolean} picking */
    showPicker(picking) {
      $('picker').hidden = !picking;
      $('follow').hidden = picking;
      $('change-part').hidden = picking;
      if (picking) setText($('part-name'), 'Pick your part');
    },
    /** @param {string} name @param {string} title */
    titles(name, title) {
      setText($('part-name'), name);
      setText($('score-title'), title);
      document.title = `${name} · Tutti`;
    },
    /**
     * A beat (or the still position when not playing).
     * @param {{ bar: number, beat: number, beats: number }} p
     * @param {{ flash: boolean, printed?: string }} options `printed`: the printed bar ("17 (2nd time)") of an imported score with repeats
     */
    position(p, { flash, printed = '' }) {
      setText($('bar'), String(p.bar));
      const printedBar = $('printed-bar');
      printedBar.hidden = !printed;
      setText(printedBar, printed ? `printed bar ${printed}` : '');
      setText($('beat'), String(p.beat));
      dots(p.beats, p.beat);
      if (!flash) return;
      const now = $('counter').parentElement;
      if (!now) return;
      now.classList.remove('flash', 'flash-down');
      now.classList.add(p.beat === 1 ? 'flash-down' : 'flash');
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => now.classList.remove('flash', 'flash-down'), FLASH_MS);
    },
    /** @param {any} section @param {string} status */
    context(section, status) {
      setText($('section'), section ? `${section.mark}${section.name ? ` — ${section.name}` : ''}` : '');
      setText($('status'), status);
    },
    /**
     * The countdown and the list after it.
     * @param {ShownCue[]} upcoming the next cues, first the one counted down to
     */
    cues(upcoming) {
      const [next, ...later] = upcoming;
      const box = $('cue');
      box.classList.toggle('now-cue', Boolean(next) && next.inBeats === 0);
      box.classList.toggle('soon', Boolean(next) && next.inBeats > 0 && next.inBeats <= 4);
      if (!next) {
        setText($('countdown'), '—');
        setText($('countdown-unit'), '');
        setText($('cue-text'), 'No more cues for this part');
        setText($('cue-where'), '');
      } else {
        setText($('countdown'), next.inBeats === 0 ? 'Now' : String(next.inBeats));
        setText($('countdown-unit'), next.inBeats === 0 ? '' : beatsWord(next.inBeats));
        setText($('cue-text'), cueText(next));
        setText($('cue-where'), `bar ${next.bar} beat ${next.beat} · ${next.address}`);
      }
      const list = $('nextup');
      const items = later.slice(0, NEXT_UP).map((c) => {
        const li = document.createElement('li');
        const cells = [['where', where(c)], ['what', cueText(c)], ['in', `in ${c.inBeats} ${beatsWord(c.inBeats)}`]];
        for (const [cls, text] of cells) {
          const span = document.createElement('span');
          span.className = cls;
          span.textContent = text;
          li.append(span);
        }
        return li;
      });
      if (items.length === 0) {
        const li = document.createElement('li');
        const span = document.createElement('span');
        span.className = 'empty';
        span.textContent = 'Nothing after that.';
        li.append(span);
        items.push(li);
      }
      list.replaceChildren(...items);
    },
    /** @param {string} mode */
    clickMode(mode) {
      const b = $('click');
      b.dataset.mode = mode;
      const text = { off: 'Click: off', countin: 'Click: count-ins', every: 'Click: every beat' }[mode] ?? mode;
      setText(b, text);
      b.setAttribute('aria-label', text);
    },
    /** The key was refused: this link is dead (the server restarted with a new token). */
    refused(text) {
      setText($('refused'), text);
      $('refused').hidden = false;
      $('follow').hidden = true;
      $('picker').hidden = true;
      $('change-part').hidden = true;
      $('click').hidden = true;
    },
    connection: (s) => pill.render(s),
  };
}
