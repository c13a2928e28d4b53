// The flywheel part of the state while playing (docs/explanation/clock-sync.md#the-flywheel): the `segment` the
// published beats are in (so a phone computes each beat itself) and the cues of the next
// 15–30 s (`ahead`, two chunks, core/engine/ahead.js). Kept beside the engine's clock, which
// tells it when the anchor moves and which beat is being published. With a rehearsal loop
// (core/engine/loop.js) the segment stops at the loop's end and, when the show goes round again,
// says which segment follows (`then`: the loop's start, sounding when the end would have), and
// the cues ahead stop at the loop's end.

import { segmentAt } from './segment.js';
import { buildAheadChunk, aheadState } from './ahead.js';

/**
 * @typedef {{ start: number, end: number, goesOn: boolean }} LoopBounds
 */

/**
 * @param {object} options
 * @param {import('./score-plan.js').ScorePlan} options.plan the score being played
 * @param {(index: number) => number} options.timeOfBeat when beat `index` sounds, from the current anchor
 * @param {() => LoopBounds | null} [options.loop] the rehearsal loop, if one is set
 */
export function createFlywheelWindow({ plan, timeOfBeat, loop = () => null }) {
  const { timeline } = plan;
  /** @type {(import('./segment.js').Segment & { then?: import('./segment.js').Segment }) | null} */
  let segment = null;
  /** @type {import('./ahead.js').AheadChunk[]} */
  let ahead = [];

  /** Where the beats seen from `index` stop running on: the loop's end when inside it, else the piece's end. */
  const limitFrom = (/** @type {number} */ index) => {
    const l = loop();
    return l && index < l.end ? l.end : timeline.totalBeats;
  };

  const chunkFrom = (/** @type {number} */ from, /** @type {number} */ limit) =>
    buildAheadChunk({ cueIndex: plan.cueIndex, cues: plan.cues, from, totalBeats: limit, timeOfBeat, assets: plan.assets });

  /** The segment anchored at `index` (sounding at `at`), stopped at the loop's end and told what follows. */
  function bounded(index, at, tempoFactor) {
    const seg = segmentAt(timeline, index, at, tempoFactor);
    const l = loop();
    if (!l || index >= l.end || seg.until < l.end) return seg;
    /** @type {import('./segment.js').Segment & { then?: import('./segment.js').Segment }} */
    const out = { ...seg, until: l.end, end: !l.goesOn && l.end >= timeline.totalBeats };
    if (l.goesOn) {
      const next = segmentAt(timeline, l.start, timeOfBeat(l.end), tempoFactor);
      out.then = { ...next, until: Math.min(next.until, l.end), end: false };
    }
    return out;
  }

  /** Drop the chunks the show has left and keep two ahead, up to where the beats stop running on. */
  function fill(/** @type {number} */ index) {
    while (ahead.length && index >= ahead[0].until) ahead.shift();
    const limit = limitFrom(index);
    while (ahead.length < 2) {
      const from = ahead.length ? ahead[ahead.length - 1].until : index;
      if (from >= limit) break;
      ahead.push(chunkFrom(from, limit));
    }
  }

  return {
    /**
     * New anchor (play, seek, tempo, resume, a branch, a loop's pass): the segment and the cues ahead start again from `index`.
     * @param {number} index
     * @param {number} tempoFactor
     */
    reanchor(index, tempoFactor) {
      segment = bounded(index, timeOfBeat(index), tempoFactor);
      ahead = [];
      if (index >= timeline.totalBeats) return;
      fill(index);
    },
    /**
     * Beat `index` (sounding at `at`) is being published: move the segment and the window along when due.
     * @param {number} index
     * @param {number} at
     * @param {number} tempoFactor
     */
    advance(index, at, tempoFactor) {
      if (segment && index >= segment.until) segment = bounded(index, at, tempoFactor);
      fill(index);
    },
    /**
     * A loop was set or released with the anchor unchanged: the same segment (same anchor beat and
     * time), bounded anew, and the cues ahead from the same first beat.
     * @param {number} tempoFactor
     */
    refresh(tempoFactor) {
      if (!segment) return;
      segment = bounded(segment.index, segment.at, tempoFactor);
      const from = ahead.length ? ahead[0].from : segment.index;
      ahead = [];
      if (from < timeline.totalBeats) fill(from);
    },
    /** The state's `segment` and `ahead`, or null before the first anchor. */
    state: () => (segment ? { segment, ahead: aheadState(ahead) } : null),
  };
}
