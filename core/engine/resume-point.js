// Range checks for a resume point read back from disk (docs/how-to/venue-server-unattended.md#crash-resume): a point that
// is not exactly what a running engine could have saved is refused with a reason, never
// clamped into something that plays (a tempoFactor of 1e-300 would make a 1 ms timer loop).
// The rehearsal loop it carries (`loop`) is checked here too; core/engine/rehearsal-controls.js
// saves and restores it.

import { MAX_LOOP_PASSES } from './loop.js';

const TRANSPORTS = new Set(['stopped', 'playing', 'paused']);
/** A playing anchor lies at most one lookahead in the future when saved; allow clock slack. */
const MAX_ANCHOR_AHEAD_MS = 60_000;

const isIndex = (value, max) => Number.isInteger(value) && value >= 0 && value <= max;

/**
 * Why a saved rehearsal loop (core/engine/loop.js) cannot be, or null.
 * @param {any} loop
 * @param {number} totalBeats
 */
function loopProblem(loop, totalBeats) {
  if (!loop || typeof loop !== 'object' || Array.isArray(loop)) return 'loop is not an object';
  if (!isIndex(loop.start, totalBeats - 1))
    return `loop.start ${JSON.stringify(loop.start)} is not a beat of this score (0–${totalBeats - 1})`;
  if (!Number.isInteger(loop.end) || loop.end <= loop.start || loop.end > totalBeats)
    return `loop.end ${JSON.stringify(loop.end)} is not after loop.start and inside the score`;
  if (loop.passes !== null && !(Number.isInteger(loop.passes) && loop.passes >= 1 && loop.passes <= MAX_LOOP_PASSES))
    return `loop.passes ${JSON.stringify(loop.passes)} is not null or 1–${MAX_LOOP_PASSES}`;
  const lastPass = loop.passes ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(loop.pass) || loop.pass < 1 || loop.pass > lastPass)
    return `loop.pass ${JSON.stringify(loop.pass)} is not a pass of the loop`;
  if (typeof loop.releasing !== 'boolean') return 'loop.releasing is not true or false';
  return null;
}

/**
 * Why `point` cannot be resumed on this score, or null when every value is in range.
 * @param {any} point a value from engine.resumePoint(), possibly read back from disk
 * @param {object} limits
 * @param {string} limits.scoreId the loaded score's id
 * @param {number} limits.totalBeats beats in the loaded score
 * @param {number} limits.minWrittenBpm slowest written tempo of the score
 * @param {number} limits.maxWrittenBpm fastest written tempo of the score
 * @param {number} limits.minBpm slowest tempo the engine accepts
 * @param {number} limits.maxBpm fastest tempo the engine accepts
 * @param {number} limits.now the server clock (ms)
 * @returns {string | null}
 */
export function resumePointProblem(point, { scoreId, totalBeats, minWrittenBpm, maxWrittenBpm, minBpm, maxBpm, now }) {
  if (!point || typeof point !== 'object' || Array.isArray(point)) return 'the resume point is not an object';
  if (point.scoreId !== scoreId) return `it was saved for another score (${JSON.stringify(point.scoreId)}, not "${scoreId}")`;
  if (!TRANSPORTS.has(point.transport)) return `transport ${JSON.stringify(point.transport)} is not stopped, playing or paused`;
  const factor = point.tempoFactor;
  // Any factor setTempo can produce maps some written beat into minBpm..maxBpm.
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor * maxWrittenBpm < minBpm || factor * minWrittenBpm > maxBpm) {
    return `tempoFactor ${JSON.stringify(factor)} is outside the tempo range ${minBpm}–${maxBpm} bpm`;
  }
  // A rehearsal tempo in percent is the factor it set (engine.js rounds it to 0.1 %).
  const percent = point.tempoPercent;
  if (percent !== undefined && !(typeof percent === 'number' && Math.abs(percent - factor * 100) <= 0.05 + 1e-9)) {
    return `tempoPercent ${JSON.stringify(percent)} is not the tempoFactor ${factor} in percent`;
  }
  if (point.loop !== undefined && point.loop !== null) {
    const why = loopProblem(point.loop, totalBeats);
    if (why) return why;
  }
  if (point.countingIn !== undefined && typeof point.countingIn !== 'boolean') return 'countingIn is not true or false';
  if (point.transport === 'playing') {
    const anchor = point.anchor;
    if (!anchor || typeof anchor !== 'object') return 'a playing point needs an anchor';
    if (!isIndex(anchor.index, totalBeats - 1))
      return `anchor.index ${JSON.stringify(anchor.index)} is not a beat of this score (0–${totalBeats - 1})`;
    if (typeof anchor.time !== 'number' || !Number.isFinite(anchor.time) || anchor.time < 0 || anchor.time > now + MAX_ANCHOR_AHEAD_MS) {
      return `anchor.time ${JSON.stringify(anchor.time)} is not a time up to now`;
    }
    return null;
  }
  if (!isIndex(point.index, totalBeats)) return `index ${JSON.stringify(point.index)} is not a beat of this score (0–${totalBeats})`;
  if (point.shown !== null && point.shown !== undefined && !isIndex(point.shown, totalBeats - 1)) {
    return `shown ${JSON.stringify(point.shown)} is not a beat of this score (0–${totalBeats - 1})`;
  }
  return null;
}
