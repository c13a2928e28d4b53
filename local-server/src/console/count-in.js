// The console's count-in (POST /api/console/count-in: N beats, one bar by default, then play from
// where play would start), now the show's own count-in (docs/how-to/rehearse.md#rehearsing): the engine
// schedules the clicks on the beats' clock and puts `countIn` in the state, so part pages click
// it and every OSC target gets `/tutti/countin n of` (osc.js); this only relays the clicks and
// the cancellation to the consoles' live feed.

import { countInEnd } from '#core/engine/count-in.js';

/**
 * @typedef {object} CountIn
 * @property {(beats: number) => void} start count `beats` clicks in, then play
 * @property {(reason: string) => boolean} cancel stop a running count-in; false when none runs
 * @property {() => { beats: number, startsAt: number } | null} active the running count-in, if any
 * @property {(reason: string) => void} close stop relaying (and cancel a running count-in)
 */

/**
 * The console's view of the engine's running count-in (its `countIn` status): how many clicks
 * and when the music starts, or null when none runs.
 * @param {import('#core/engine/count-in.js').CountIn | null | undefined} running
 * @returns {{ beats: number, startsAt: number } | null}
 */
export function countInView(running) {
  return running ? { beats: running.beats, startsAt: countInEnd(running) } : null;
}

/**
 * @param {object} options
 * @param {any} options.show the running show (its engine and events)
 * @param {(data: Record<string, unknown>) => void} options.tell a click `{n, of, at}`, or `{cancelled, reason}`, for the consoles
 * @returns {CountIn}
 */
export function createCountIn({ show, tell }) {
  const relay = (click) => tell(click);
  show.events.on('countin', relay);
  const cancel = (reason) => show.engine.cancelCountIn(reason);
  return {
    start(beats) {
      show.engine.startFrom(show.engine.playFrom(), { countInBeats: beats });
    },
    cancel,
    active: () => countInView(show.engine.status().countIn),
    close(reason) {
      cancel(reason);
      show.events.off('countin', relay);
    },
  };
}
