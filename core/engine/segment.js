// The timeline segment the show is in: a run of beats with one meter and a tempo that is steady
// or changes linearly per beat (docs/reference/score-format.md#gradual-changes). Between operator actions
// the show's time is deterministic, so a viewer holding the segment and a synced clock can
// compute every beat's bar, beat and time itself until `until`, with no message per beat.

/**
 * @typedef {object} Segment
 * @property {number} index beat index of the anchor beat
 * @property {number} bar bar of the anchor beat
 * @property {number} beat beat (1-based) of the anchor beat in its bar
 * @property {number} beats beats per bar throughout the segment
 * @property {number} at server ms when the anchor beat sounds
 * @property {number} bpm tempo of the anchor beat (operator override applied)
 * @property {number} step tempo change per beat (0 when steady)
 * @property {number} until first beat index the segment does not describe (next tempo/meter change, or the end)
 * @property {boolean} end true when `until` is the end of the piece
 */

/**
 * The segment anchored at beat `index`, which sounds at `at`.
 * @param {import('#core/score/timeline.js').Timeline} timeline
 * @param {number} index
 * @param {number} at
 * @param {number} tempoFactor operator override: effective tempo = written × factor
 * @returns {Segment}
 */
export function segmentAt(timeline, index, at, tempoFactor) {
  const pos = timeline.positionOf(index);
  const until = timeline.segmentEnd(index);
  const bpm = timeline.bpmAt(index) * tempoFactor;
  const step = until - index > 1 ? timeline.bpmAt(index + 1) * tempoFactor - bpm : 0;
  return { index, bar: pos.bar, beat: pos.beat, beats: pos.beats, at, bpm, step, until, end: until >= timeline.totalBeats };
}

/**
 * Bar, beat and time of beat `index` inside a segment (index from segment.index to segment.until).
 * Sums beat lengths from the anchor, as the server does, so ramps land on the same times.
 * @param {Segment} segment
 * @param {number} index
 * @returns {{ index: number, bar: number, beat: number, beats: number, at: number, bpm: number }}
 */
export function beatInSegment(segment, index) {
  let at = segment.at;
  if (segment.step === 0) at += ((index - segment.index) * 60000) / segment.bpm;
  else for (let k = segment.index; k < index; k += 1) at += 60000 / (segment.bpm + segment.step * (k - segment.index));
  const offset = segment.beat - 1 + (index - segment.index);
  return {
    index,
    bar: segment.bar + Math.floor(offset / segment.beats),
    beat: (offset % segment.beats) + 1,
    beats: segment.beats,
    at,
    bpm: segment.bpm + segment.step * (index - segment.index),
  };
}

/**
 * Is a value a usable segment (from the network: never trust its shape)?
 * @param {unknown} value
 * @returns {value is Segment}
 */
export function isSegment(value) {
  if (typeof value !== 'object' || value === null) return false;
  const s = /** @type {Record<string, unknown>} */ (value);
  const finite = ['index', 'bar', 'beat', 'beats', 'at', 'bpm', 'step', 'until'].every(
    (k) => typeof s[k] === 'number' && Number.isFinite(s[k]),
  );
  return (
    finite &&
    /** @type {number} */ (s.beats) >= 1 &&
    /** @type {number} */ (s.bpm) > 0 &&
    /** @type {number} */ (s.until) > /** @type {number} */ (s.index) &&
    /** @type {number} */ (s.until) - /** @type {number} */ (s.index) <= 400_000
  );
}
