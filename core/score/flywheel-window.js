// The flywheel part of the state while playing (README.md, "flywheel"): the `segment` the
// published beats are in (so a phone computes each beat itself) and the cues of the next
// 15–30 s (`ahead`, two chunks, core/score/ahead.js). Kept beside the engine's clock, which
// tells it when the anchor moves and which beat is being published.

import { segmentAt } from './segment.js';
import { buildAheadChunk, aheadState } from './ahead.js';

/**
 * @param {object} options
 * @param {import('./score-plan.js').ScorePlan} options.plan the score being played
 * @param {(index: number) => number} options.timeOfBeat when beat `index` sounds, from the current anchor
 */
export function createFlywheelWindow({ plan, timeOfBeat }) {
  const { timeline } = plan;
  /** @type {import('./segment.js').Segment | null} */
  let segment = null;
  /** @type {import('./ahead.js').AheadChunk[]} */
  let ahead = [];

  const chunkFrom = (/** @type {number} */ from) =>
    buildAheadChunk({ cueIndex: plan.cueIndex, cues: plan.cues, from, totalBeats: timeline.totalBeats, timeOfBeat, assets: plan.assets });

  return {
    /**
     * New anchor (play, seek, tempo, resume, a branch): the segment and the cues ahead start again from `index`.
     * @param {number} index
     * @param {number} tempoFactor
     */
    reanchor(index, tempoFactor) {
      segment = segmentAt(timeline, index, timeOfBeat(index), tempoFactor);
      ahead = [];
      if (index >= timeline.totalBeats) return;
      ahead.push(chunkFrom(index));
      if (ahead[0].until < timeline.totalBeats) ahead.push(chunkFrom(ahead[0].until));
    },
    /**
     * Beat `index` (sounding at `at`) is being published: move the segment and the window along when due.
     * @param {number} index
     * @param {number} at
     * @param {number} tempoFactor
     */
    advance(index, at, tempoFactor) {
      if (segment && index >= segment.until) segment = segmentAt(timeline, index, at, tempoFactor);
      if (ahead.length === 2 && index >= ahead[1].from) {
        ahead.shift();
        if (ahead[0].until < timeline.totalBeats) ahead.push(chunkFrom(ahead[0].until));
      }
    },
    /** The state's `segment` and `ahead`, or null before the first anchor. */
    state: () => (segment ? { segment, ahead: aheadState(ahead) } : null),
  };
}
