// Applying an edited score while the show plays or is paused (docs/reference/score-editing-api.md#apply-while-playing):
// the plan is swapped under the running clock instead of loading the score (which stops the show
// and starts a new epoch). The position record is kept whole: the beat shown, the next beat to
// publish, what the audience sees and hears. Beats already published are never published again,
// so no cue goes out twice; the new cues count from the next beat published. The clock is
// re-anchored at the last published beat, so a tempo edit takes effect from there on.

import { planScore } from './score-plan.js';
import { createFlywheelWindow } from './flywheel-window.js';

/**
 * Why `next` cannot replace `current` without moving the show, or null: every beat up to
 * `upTo` (the next to publish) must keep its bar and beat, and the piece must still hold it.
 * @param {import('#core/score/timeline.js').Timeline} current
 * @param {import('#core/score/timeline.js').Timeline} next
 * @param {number} upTo
 * @returns {string | null}
 */
export function liveEditProblem(current, next, upTo) {
  if (next.totalBeats <= upTo) {
    return `the edited piece ends before the playing position (beat ${upTo + 1} of the performance); stop the show to save it`;
  }
  for (let k = 0; k <= upTo && k < current.totalBeats; k += 1) {
    const a = current.positionOf(k);
    const b = next.positionOf(k);
    if (a.bar !== b.bar || a.beat !== b.beat) {
      return `the edit changes the bars, meter or form before the playing position (bar ${a.bar} beat ${a.beat} would become bar ${b.bar} beat ${b.beat}); stop the show to save it`;
    }
  }
  return null;
}

/**
 * The engine's live edit.
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createLiveEdit(show) {
  const { at, clock, transport } = show;
  return {
    /**
     * Swap in `nextScore` (validated, normalized) without moving the show.
     * @param {any} nextScore
     * @param {{ check?: boolean }} [options] `check`: only say whether it could be applied now
     * @returns {string | null} why it cannot be applied (nothing changed), or null when applied (or applicable)
     */
    applyLive(nextScore, { check = false } = {}) {
      const plan = planScore(nextScore);
      const upTo = transport.playing() ? at.nextBeat : Math.max(at.current, at.playFrom);
      const problem = liveEditProblem(show.loaded.timeline, plan.timeline, upTo);
      if (problem || check) return problem;
      const { score, timeline, assets, cueIndex } = plan;
      const flywheel = createFlywheelWindow({ plan, timeOfBeat: clock.timeOfBeat, loop: show.rehearsal.bounds });
      if (transport.playing()) {
        // The last beat published keeps its time; later ones follow the edited tempo map.
        at.anchor = { index: at.current, time: at.currentAt };
      }
      show.loaded = { plan, score, timeline, assets, cueIndex, flywheel };
      if (transport.playing()) clock.reanchor(at.current);
      show.emitState();
      return null;
    },
  };
}
