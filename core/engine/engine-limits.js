// What the show engine accepts (core/engine/engine.js): its error type, its limits, and the checks
// every entry point runs before it moves anything, so a refusal never leaves the show half-moved.
// The limits are the contract of docs/how-to/rehearse.md#rehearsing ("Control API").

export const DEFAULT_LOOKAHEAD_MS = 300;
export const MIN_BPM = 10;
export const MAX_BPM = 400;
/** A rehearsal tempo as a percentage of the written tempo (docs/how-to/rehearse.md#rehearsing). */
export const MIN_TEMPO_PERCENT = 10;
export const MAX_TEMPO_PERCENT = 200;

/**
 * Error with a code a caller (control API, OSC-in) can map to a response.
 */
export class EngineError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * The beat index of `bar`/`beat`, or BAD_POSITION when the piece has no such beat.
 * @param {import('#core/score/timeline.js').Timeline} timeline
 * @param {number} bar
 * @param {number} beat
 * @returns {number}
 */
export function checkBarBeat(timeline, bar, beat) {
  if (!Number.isInteger(bar) || bar < 1 || bar > timeline.bars) {
    throw new EngineError('BAD_POSITION', `bar must be an integer from 1 to ${timeline.bars}`);
  }
  const beats = timeline.beatsInBar(bar);
  if (!Number.isInteger(beat) || beat < 1 || beat > beats) {
    throw new EngineError('BAD_POSITION', `beat must be an integer from 1 to ${beats} in bar ${bar}`);
  }
  return timeline.indexOf(bar, beat);
}

/**
 * BAD_POSITION unless `index` is a beat of the piece (a rehearsal start).
 * @param {import('#core/score/timeline.js').Timeline} timeline
 * @param {number} index
 */
export function checkStartBeat(timeline, index) {
  if (!Number.isInteger(index) || index < 0 || index >= timeline.totalBeats) {
    throw new EngineError('BAD_POSITION', `the start must be a beat of the piece (0 to ${timeline.totalBeats - 1})`);
  }
}

/**
 * BAD_RANGE unless beats `start` up to `end` (not included) lie inside the piece, end after start.
 * @param {import('#core/score/timeline.js').Timeline} timeline
 * @param {{ start: number, end: number }} range
 */
export function checkLoopRange(timeline, { start, end }) {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > timeline.totalBeats) {
    throw new EngineError('BAD_RANGE', 'a loop must end after it starts, inside the piece');
  }
}

/**
 * BAD_TEMPO unless `bpm` is null (the written tempo) or a number within MIN_BPM–MAX_BPM.
 * @param {unknown} bpm
 */
export function checkBpm(bpm) {
  if (bpm !== null && (typeof bpm !== 'number' || !Number.isFinite(bpm) || bpm < MIN_BPM || bpm > MAX_BPM)) {
    throw new EngineError('BAD_TEMPO', `bpm must be a number from ${MIN_BPM} to ${MAX_BPM}`);
  }
}

/**
 * BAD_TEMPO unless `percent` is within MIN_TEMPO_PERCENT–MAX_TEMPO_PERCENT and keeps every
 * written tempo (`written`, the score's slowest and fastest) within MIN_BPM–MAX_BPM.
 * @param {unknown} percent
 * @param {{ min: number, max: number }} written
 */
export function checkTempoPercent(percent, written) {
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < MIN_TEMPO_PERCENT || percent > MAX_TEMPO_PERCENT) {
    throw new EngineError('BAD_TEMPO', `percent must be a number from ${MIN_TEMPO_PERCENT} to ${MAX_TEMPO_PERCENT}`);
  }
  if (written.min * (percent / 100) < MIN_BPM || written.max * (percent / 100) > MAX_BPM) {
    throw new EngineError('BAD_TEMPO', `${percent} % would take the written tempo outside ${MIN_BPM}–${MAX_BPM} bpm`);
  }
}
