// The count-in the engine is running (docs/how-to/rehearse.md#rehearsing), at most one: its plan for the
// state and its scheduled clicks (core/engine/count-in.js), started into a beat, cancelled with a
// reason every listener hears. Part of the rehearsal controls (rehearsal-controls.js).

import { planCountIn, runCountIn } from './count-in.js';

/**
 * @param {import('./rehearsal-controls.js').EngineMoves} engine
 */
export function createRunningCountIn(engine) {
  /** @type {{ plan: import('./count-in.js').CountIn, run: { cancel: () => void } } | null} */
  let countIn = null;

  return {
    /**
     * Stop a running count-in (its clicks not yet sent are dropped by whoever sends them).
     * @param {string} reason
     * @returns {boolean} whether one was running
     */
    cancel(reason) {
      if (!countIn) return false;
      countIn.run.cancel();
      countIn = null;
      engine.onCountIn({ cancelled: true, reason });
      return true;
    },
    /**
     * Play a count-in of `beats` clicks leading into beat `index`, then the show from there.
     * @param {number} index
     * @param {number} beats
     * @param {boolean} audience
     */
    start(index, beats, audience) {
      const timeline = engine.timeline();
      const counted = planCountIn({
        from: { ...timeline.positionOf(index), index },
        beats,
        bpm: timeline.bpmAt(index) * engine.tempoFactor(),
        at: engine.now() + engine.lookaheadMs,
        audience,
      });
      const run = runCountIn({
        countIn: counted,
        now: engine.now,
        setTimer: engine.setTimer,
        clearTimer: engine.clearTimer,
        lookaheadMs: engine.lookaheadMs,
        onClick: (click) => engine.onCountIn(click),
        onDone: (firstBeatAt) => {
          countIn = null;
          engine.play(index, firstBeatAt);
        },
      });
      countIn = { plan: counted, run };
    },
    /** The running count-in's plan (the state's `countIn`), or null. */
    plan: () => (countIn ? countIn.plan : null),
  };
}
