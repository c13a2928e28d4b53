// The console's count-in: N clicks (one bar by default) to the console and, through the show's one
// OSC sender (osc.js: each target by its mode and offset, like the beats), to the musicians, then
// play — timed so the first beat of the show lands one beat after the last click, on the same
// clock as the beats.

import { DEFAULT_LOOKAHEAD_MS } from '#core/score/engine.js';

/**
 * @typedef {object} CountIn
 * @property {(beats: number) => void} start schedule `beats` clicks, then play
 * @property {(reason: string) => boolean} cancel stop a running count-in; false when none runs
 * @property {() => { beats: number, startsAt: number } | null} active the running count-in, if any
 * @property {(reason: string) => void} close cancel a running count-in
 */

/**
 * @param {object} options
 * @param {any} options.show the running show (engine.status(), engine.play())
 * @param {{ timed: (at: number, element: [string, ...any[]], kind: string) => () => void }} options.osc the show's OSC sender (osc.js)
 * @param {() => number} options.serverNow the server clock (ms) beats are timed on
 * @param {(data: Record<string, unknown>) => void} options.tell a click, or the cancellation, for the consoles
 * @returns {CountIn}
 */
export function createCountIn({ show, osc, serverNow, tell }) {
  /** @type {{ beats: number, startsAt: number, timers: NodeJS.Timeout[], unsent: Array<() => void> } | null} */
  let running = null;

  function cancel(reason) {
    if (!running) return false;
    for (const timer of running.timers) clearTimeout(timer);
    for (const unsend of running.unsent) unsend();
    running = null;
    tell({ cancelled: true, reason });
    return true;
  }

  function start(beats) {
    const beatMs = 60000 / show.engine.status().tempo;
    const lead = DEFAULT_LOOKAHEAD_MS;
    const first = serverNow() + lead; // the first click sounds one lookahead from now, like a beat
    const startsAt = first + beats * beatMs;
    const timers = [];
    /** @type {Array<() => void>} clicks handed to the sender but not yet due */
    const unsent = [];
    for (let k = 0; k < beats; k += 1) {
      const at = first + k * beatMs;
      // Handed over one lookahead early, like a beat: `ahead` targets get it timetagged then,
      // `plain` ones when it sounds.
      timers.push(
        setTimeout(
          () => {
            unsent.push(osc.timed(at, ['/tutti/countin', k + 1, beats], 'countin'));
            tell({ n: k + 1, of: beats, at });
          },
          Math.max(0, at - lead - serverNow()),
        ),
      );
    }
    // engine.play() makes the next beat sound one lookahead after the call.
    timers.push(
      setTimeout(
        () => {
          running = null;
          show.engine.play();
        },
        Math.max(0, startsAt - lead - serverNow()),
      ),
    );
    running = { beats, startsAt, timers, unsent };
  }

  return {
    start,
    cancel,
    active: () => (running ? { beats: running.beats, startsAt: running.startsAt } : null),
    close(reason) {
      cancel(reason);
    },
  };
}
