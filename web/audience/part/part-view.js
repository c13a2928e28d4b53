// Everything the musician sees on the part page: the picker, bar:beat with the beat flash, the
// section, the countdown to the next cue and what it says, and the "next up" list. Only
// textContent and classes are written (never HTML), so nothing from the network can inject markup.

import { cueText } from '#core/client/part-plan.js';
import { createConnectionPill } from '../src/connection-pill.js';
import { t, nth, localizePage } from '../src/i18n.js';
import { announcer } from '../src/announcer.js';
import { createBeatFlashLimit } from '../src/flash-limit.js';
import { createHaptics } from '../src/haptics.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const FLASH_MS = 120;
const NEXT_UP = 4;

/** @typedef {import('#core/client/part-plan.js').PartCue & { inBeats: number }} ShownCue */

/** A row of the "next up" list: where, what, and in how many beats; a line saying none when empty. */
function nextUpItems(/** @type {ShownCue[]} */ later, /** @type {(bar: number) => string} */ barName) {
  const row = (/** @type {Array<[string, string]>} */ cells) => {
    const li = document.createElement('li');
    for (const [cls, text] of cells) {
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = text;
      li.append(span);
    }
    return li;
  };
  const items = later.map((c) =>
    row([
      ['where', `${barName(c.bar)}:${c.beat}`],
      ['what', cueText(c)],
      ['in', t('part.in', { n: c.inBeats })],
    ]),
  );
  return items.length ? items : [row([['empty', t('part.nothingAfter')]])];
}

/** The picker's button for a part ("*": all parts). */
function partButton(/** @type {{ id: string, name: string, osc?: string }} */ p, /** @type {(id: string) => void} */ onPick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.part = p.id;
  b.append(p.name);
  const small = document.createElement('small');
  small.textContent = p.id === '*' ? t('part.allCues') : `OSC ${p.osc}`;
  b.append(small);
  b.addEventListener('click', () => onPick(p.id));
  return b;
}

/** The part page's DOM (part/index.html): returns the functions main.js draws with. */
export function createPartView() {
  localizePage();
  const pill = createConnectionPill();
  const flashes = createBeatFlashLimit();
  const haptics = createHaptics(/** @type {HTMLButtonElement} */ ($('vibrate')));
  const say = announcer().say;
  let flashTimer = null;
  let lastBeats = 0;
  let lastSection = '';
  let lastCue = '';

  const setText = (node, text) => {
    const t = text ?? '';
    if (node.textContent !== t) node.textContent = t;
  };
  /** A bar as the musician counts it: the printed number (with its pass when it repeats), else the running bar. */
  const barName = (bar, printedOf) => {
    const p = printedOf?.(bar);
    return p ? (p.repeated ? `${p.number} (${t('part.time', { pass: nth(p.pass) })})` : String(p.number)) : String(bar);
  };
  const beatsWord = (n) => t('part.beats', { n });

  function dots(beats, beat, counting = false) {
    const box = $('beats');
    box.classList.toggle('counting', counting);
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
      const buttons = [...parts, { id: '*', name: t('part.all'), osc: 'every cue' }].map((p) => partButton(p, onPick));
      $('part-list').replaceChildren(...buttons);
    },
    /** @param {boolean} picking */
    showPicker(picking) {
      $('picker').hidden = !picking;
      $('follow').hidden = picking;
      $('change-part').hidden = picking;
      if (picking) setText($('part-name'), t('part.pick'));
    },
    /** @param {string} name @param {string} title */
    titles(name, title) {
      setText($('part-name'), name);
      setText($('score-title'), title);
      document.title = `${name} · Tutti`;
    },
    /**
     * A beat (or the still position when not playing).
     * @param {{ bar: number, beat: number, beats: number, at?: number, bpm?: number }} p
     * @param {{ flash: boolean, printed?: import('#core/score/printed-bars.js').PrintedBar | null }} options `printed`: the
     *   printed bar of a score that has printed numbers: then it is the big number (issue 40 item 16) and the running bar is small below
     */
    position(p, { flash, printed = null }) {
      setText($('bar'), String(printed ? printed.number : p.bar));
      const printedBar = $('printed-bar');
      printedBar.hidden = !printed;
      const small = printed ? [printed.repeated ? t('part.time', { pass: nth(printed.pass) }) : '', t('part.running', { bar: p.bar })] : [];
      setText(printedBar, small.filter(Boolean).join(' · '));
      setText($('beat'), String(p.beat));
      const spoken = printed ? barName(p.bar, () => printed) : p.bar;
      $('counter').setAttribute('aria-label', t('counter.now', { bar: spoken, beat: p.beat }));
      dots(p.beats, p.beat);
      if (!flash || typeof p.at !== 'number') return;
      haptics.beat({ beat: p.beat, at: p.at });
      // Within three flashes a second, none with reduced motion (../src/flash-limit.js).
      if (!flashes.flash({ beat: p.beat, at: p.at, bpm: p.bpm })) return;
      const now = $('counter').parentElement;
      if (!now) return;
      now.classList.remove('flash', 'flash-down');
      now.classList.add(p.beat === 1 ? 'flash-down' : 'flash');
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => now.classList.remove('flash', 'flash-down'), FLASH_MS);
    },
    /** @param {any} section @param {string} status */
    context(section, status) {
      const text = section ? `${section.mark}${section.name ? ` — ${section.name}` : ''}` : '';
      setText($('section'), text);
      if (text && text !== lastSection) say(t('section.now', { name: text }));
      lastSection = text;
      setText($('status'), status);
    },
    /**
     * The countdown and the list after it.
     * @param {ShownCue[]} upcoming the next cues, first the one counted down to
     * @param {(bar: number) => import('#core/score/printed-bars.js').PrintedBar | null} [printedOf] printed bars, when the score has them
     */
    cues(upcoming, printedOf) {
      const [next, ...later] = upcoming;
      const box = $('cue');
      box.classList.toggle('now-cue', Boolean(next) && next.inBeats === 0);
      box.classList.toggle('soon', Boolean(next) && next.inBeats > 0 && next.inBeats <= 4);
      if (!next) {
        setText($('countdown'), '—');
        setText($('countdown-unit'), '');
        setText($('cue-text'), t('part.noMore'));
        setText($('cue-where'), '');
      } else {
        setText($('countdown'), next.inBeats === 0 ? t('part.now') : String(next.inBeats));
        setText($('countdown-unit'), next.inBeats === 0 ? '' : beatsWord(next.inBeats));
        setText($('cue-text'), cueText(next));
        setText($('cue-where'), t('part.cueWhere', { bar: barName(next.bar, printedOf), beat: next.beat, address: next.address }));
      }
      // The next cue is spoken when it changes (once the last one has passed), not its countdown
      // (that changes every beat); several cues in quick succession: the latest, once every 2 s.
      const cueSaid = next
        ? t('part.cueSaid', { text: cueText(next), bar: barName(next.bar, printedOf), beat: next.beat })
        : t('part.noMore');
      if (cueSaid !== lastCue) say(cueSaid, { kind: 'cue' });
      lastCue = cueSaid;
      const list = $('nextup');
      const items = nextUpItems(later.slice(0, NEXT_UP), (bar) => barName(bar, printedOf));
      list.replaceChildren(...items);
    },
    /**
     * A count-in's click (docs/how-to/rehearse.md#rehearsing): the beat dots count the count-in's beats in
     * its bar, not the start position the show stands on.
     * @param {number} perBar clicks in a count-in bar
     * @param {number} beatInBar this click's beat in its bar
     */
    countInDots(perBar, beatInBar) {
      dots(perBar, beatInBar, true);
    },
    /** @param {string} mode */
    clickMode(mode) {
      const b = $('click');
      b.dataset.mode = mode;
      setText(b, t(`click.${mode}`));
    },
    /** The key was refused: this link is dead (the server restarted with a new token). */
    refused(text) {
      setText($('refused'), text);
      $('vibrate').hidden = true;
      $('refused').hidden = false;
      $('follow').hidden = true;
      $('picker').hidden = true;
      $('change-part').hidden = true;
      $('click').hidden = true;
    },
    connection: (s) => pill.render(s),
  };
}
