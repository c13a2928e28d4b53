// What the part page shows of a rehearsal (docs/how-to/rehearse.md#rehearsing): the count-in ("2 … 1 …", the
// bars left, with the click number), the loop's pass ("loop: pass 2 of 3") and the rehearsal
// tempo ("80 %"). While the count-in runs, the beat dots count its clicks in their bar (not the
// start beat the show stands on). The count-in is kept from the state until its last click has
// sounded: the state that starts the show (one lookahead before its first beat) no longer carries
// it. Only textContent is written.

import { countInAt, countInEnd, isCountIn } from '#core/engine/count-in.js';
import { t } from '../src/i18n.js';
import { announcer } from '../src/announcer.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @param {object} options
 * @param {(perBar: number, beatInBar: number) => void} options.countInDots draws a count-in click on the beat dots
 */
export function createRehearsalView({ countInDots }) {
  /** @type {import('#core/engine/count-in.js').CountIn | null} */
  let counting = null;
  let said = '';
  const say = announcer().say;

  return {
    /**
     * A new state: the count-in it carries, or the one still sounding while the show starts.
     * @param {Record<string, any>} lean
     * @param {number} serverNow
     */
    update(lean, serverNow) {
      if (isCountIn(lean.countIn)) counting = lean.countIn;
      else if (!(lean.transport === 'playing' && counting && serverNow < countInEnd(counting))) counting = null;
      const key = counting ? `${counting.at}` : '';
      if (counting && key !== said) say(t('part.countInSaid', { n: Math.ceil(counting.beats / counting.perBar) }), { kind: 'cue' });
      said = key;
    },
    /** The running count-in, if any. */
    countIn: () => counting,
    /**
     * Draw the count-in at `serverNow`; returns when to draw again (server ms), or null.
     * @param {number} serverNow
     * @returns {number | null}
     */
    drawCountIn(serverNow) {
      const box = $('countin');
      const click = counting ? countInAt(counting, serverNow) : null;
      box.hidden = !click;
      if (!click || !counting) {
        if (counting && serverNow >= countInEnd(counting)) counting = null;
        return counting ? counting.at : null;
      }
      const text = `${click.barsLeft} …`;
      if (box.textContent !== text) box.textContent = text;
      box.dataset.n = String(click.n);
      countInDots(counting.perBar, click.beatInBar);
      $('status').textContent = t('part.countIn', { n: click.n, of: click.of });
      return click.nextAt;
    },
    /**
     * The loop's pass and the rehearsal tempo under the position.
     * @param {{ pass: number, of: number | null } | null} loop
     * @param {number | null | undefined} percent
     */
    context(loop, percent) {
      const parts = [];
      if (loop) parts.push(loop.of === null ? t('part.passOpen', { pass: loop.pass }) : t('part.pass', { pass: loop.pass, of: loop.of }));
      if (typeof percent === 'number') parts.push(t('part.percent', { percent }));
      const text = parts.join(' · ');
      const box = $('rehearsal');
      box.hidden = text === '';
      if (box.textContent !== text) box.textContent = text;
    },
  };
}
