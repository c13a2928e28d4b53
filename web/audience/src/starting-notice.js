// "Starting in 4 beats" on the audience page during a count-in the operator shares with the audience
// (docs/how-to/rehearse.md#rehearsing: the state's `countIn` with `audience: true`); nothing at all when it is
// not shared. Counts the clicks left on the synced clock, so every phone counts together. The
// element is made here (shaped as the venue notice, in calm colours: venue-notice.css), so the
// page's HTML does not change.

import { countInAt, countInEnd, isCountIn } from '#core/engine/count-in.js';
import { t } from './i18n.js';

/**
 * @param {{ toLocal: (serverMs: number) => number, toServer: (localMs: number) => number, now: () => number }} clock page ms ↔ server ms
 */
export function createStartingNotice(clock) {
  const box = document.createElement('p');
  box.id = 'starting';
  box.className = 'venue-notice starting-notice';
  box.setAttribute('role', 'status');
  box.hidden = true;
  (document.getElementById('venue-notice') ?? document.body.firstElementChild)?.after(box);
  /** @type {import('#core/engine/count-in.js').CountIn | null} */
  let counting = null;
  let timer = null;

  function draw() {
    clearTimeout(timer);
    timer = null;
    const serverNow = clock.toServer(clock.now());
    const click = counting ? countInAt(counting, serverNow) : null;
    if (counting && serverNow >= countInEnd(counting)) counting = null;
    box.hidden = !click;
    if (click) {
      // A unit, so the number reads as a count and not as an error code (issue 40.18).
      const text = t('audience.startingIn', { n: click.of - click.n + 1 });
      if (box.textContent !== text) box.textContent = text;
    }
    const next = click ? click.nextAt : counting ? counting.at : null;
    if (next !== null) timer = setTimeout(draw, Math.max(0, clock.toLocal(next) - clock.now()) + 1);
  }

  return {
    /**
     * A new state: a shared count-in starts (or goes on until its last click while the show starts).
     * @param {Record<string, any>} state
     */
    update(state) {
      if (isCountIn(state.countIn) && state.countIn.audience) counting = state.countIn;
      else if (state.transport !== 'playing') counting = null;
      draw();
    },
    /** The notice's text, for the tests ('' when hidden). */
    text: () => (box.hidden ? '' : (box.textContent ?? '')),
  };
}
