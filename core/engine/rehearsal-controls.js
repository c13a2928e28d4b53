// The engine's rehearsal controls (docs/how-to/rehearse.md#rehearsing): start from a beat after a count-in,
// a loop taken at every pass like a branch, and their part of the state. Kept out of the engine
// (core/engine/engine.js), which hands over the few moves of its own these need: stand on a beat,
// play from one, drop a pending branch, refresh the flywheel, publish. The running count-in is
// core/engine/running-count-in.js (its plan and scheduling core/engine/count-in.js); a loop's passes
// core/engine/loop.js.

import { createRunningCountIn } from './running-count-in.js';
import { createLoop, goesOn, loopState, resumeLoop } from './loop.js';

/**
 * @typedef {object} EngineMoves what the engine lends the controls
 * @property {() => number} now
 * @property {number} lookaheadMs
 * @property {(fn: () => void, ms: number) => unknown} setTimer
 * @property {(handle: unknown) => void} clearTimer
 * @property {(click: { n: number, of: number, at: number } | { cancelled: true, reason: string }) => void} onCountIn
 * @property {() => import('#core/score/timeline.js').Timeline} timeline
 * @property {() => number} tempoFactor
 * @property {() => boolean} playing
 * @property {(index: number) => void} stand stop publishing and stand on beat `index` (a playing show pauses)
 * @property {(index: number, time?: number) => void} play play from beat `index`, sounding at `time` (default one lookahead from now)
 * @property {() => void} dropJump forget a pending branch (the loop wins)
 * @property {() => void} refreshFlywheel the loop changed: the segment and the cues ahead again, same anchor
 * @property {() => void} emitState
 */

/**
 * @param {EngineMoves} engine
 */
export function createRehearsalControls(engine) {
  /** @type {import('./loop.js').Loop | null} */
  let loop = null;
  const countIn = createRunningCountIn(engine);
  const cancelCountIn = (/** @type {string} */ reason) => countIn.cancel(reason);

  /** Past the loop's end the show never comes round again: the loop is forgotten (before or inside it, it stays). */
  const movedTo = (/** @type {number} */ index) => {
    if (loop && index >= loop.end) loop = null;
  };

  return {
    cancelCountIn,
    /**
     * Start from beat `index` after `countInBeats` clicks at the tempo of that beat (0: at once, as
     * a seek and play). While it counts in, the show stands on that beat and the state carries `countIn`.
     * @param {number} index a beat of the piece (checked by the caller)
     * @param {{ countInBeats?: number, audience?: boolean }} [options]
     */
    startFrom(index, { countInBeats = 0, audience = false } = {}) {
      cancelCountIn('started again');
      movedTo(index);
      if (countInBeats === 0) return engine.play(index);
      engine.stand(index);
      countIn.start(index, countInBeats, audience);
      engine.emitState();
    },
    /**
     * Loop beats `start` up to `end` (checked by the caller) `passes` times, or until released (null).
     * @param {{ start: number, end: number, passes?: number | null }} range
     */
    setLoop({ start, end, passes = null }) {
      engine.dropJump();
      loop = createLoop({ start, end, passes });
      if (engine.playing()) engine.refreshFlywheel();
      engine.emitState();
    },
    /** Leave the loop at the end of the pass being played; false when none is set. */
    releaseLoop() {
      if (!loop) return false;
      loop.releasing = true;
      if (engine.playing()) engine.refreshFlywheel();
      engine.emitState();
      return true;
    },
    /**
     * The show is about to publish beat `index`: at the loop's end, another pass (the jump back to
     * take, like a branch) or the loop is over.
     * @param {number} index
     * @returns {{ from: number, to: number } | null}
     */
    jumpAt(index) {
      if (!loop || index !== loop.end) return null;
      if (!goesOn(loop)) {
        loop = null;
        return null;
      }
      loop.pass += 1;
      return { from: loop.end, to: loop.start };
    },
    /** A seek to beat `index`: past the loop's end the loop is forgotten. */
    movedTo,
    /** Forget the loop and any count-in (stop, a new score). */
    clear(/** @type {string} */ reason) {
      const had = cancelCountIn(reason) || loop !== null;
      loop = null;
      return had;
    },
    /** The loop for the flywheel (core/engine/flywheel-window.js), or null. */
    bounds: () => (loop ? { start: loop.start, end: loop.end, goesOn: goesOn(loop) } : null),
    /** The pass of the loop being played (1 on the first), or null when no loop is set. */
    loopPass: () => (loop ? loop.pass : null),
    /** The state's `countIn` and `loop` while they are set. */
    state() {
      /** @type {Record<string, unknown>} */
      const s = {};
      const counting = countIn.plan();
      if (counting) s.countIn = counting;
      if (loop) s.loop = loopState(loop, engine.timeline());
      return s;
    },
    /**
     * The rehearsal's part of a crash-resume point (docs/how-to/venue-server-unattended.md#crash-resume): the loop (range,
     * passes, pass, releasing), and whether a count-in was running (it is not resumed: the show
     * comes back paused on its start beat).
     */
    resumePart() {
      return { loop: loop ? { ...loop } : null, ...(countIn.plan() ? { countingIn: true } : {}) };
    },
    /**
     * Restore the loop of a resume point checked by core/engine/resume-point.js, carried forward
     * over the passes played while the server was down; returns the point to resume the rest from
     * (the anchor moved to the pass sounding now; a count-in that was running: paused on its start).
     * Call it after the point's tempo factor is in place, before the show is anchored.
     * @param {any} point
     * @returns {any}
     */
    resume(point) {
      cancelCountIn('resumed');
      loop = point.loop ? { ...point.loop } : null;
      if (point.countingIn) return { ...point, transport: 'paused' };
      if (!loop || point.transport !== 'playing') return point;
      const timeline = engine.timeline();
      const carried = resumeLoop(loop, point.anchor, engine.now(), { msAt: (i) => timeline.msAt(i), tempoFactor: engine.tempoFactor() });
      loop = carried.loop;
      return { ...point, anchor: carried.anchor };
    },
    /** For the status: the count-in's plan and the loop, or null. */
    status: () => ({ countIn: countIn.plan(), loop: loop ? loopState(loop, engine.timeline()) : null }),
  };
}
