// A rehearsal loop (docs/how-to/rehearse.md#rehearsing): beats `start` up to (not including) `end` played N
// times or until released. To the engine it is a branch that comes back at every pass: beat `end`
// is replaced by beat `start` one lookahead before it would sound. To the viewers it is a segment
// that ends at the loop's end and says what follows (`segment.then`), and the state's `loop`
// (which pass of how many), so no display jumps and a countdown runs on across the loop point.
// Pure and runtime-free.

/** The most passes a loop may be given (else: until released). */
export const MAX_LOOP_PASSES = 99;

/**
 * @typedef {object} Loop
 * @property {number} start first beat index of the range
 * @property {number} end first beat index after the range
 * @property {number} pass the pass being played (1-based)
 * @property {number | null} passes how many passes, null = until released
 * @property {boolean} releasing released: the show leaves at the end of this pass
 */

/**
 * @param {{ start: number, end: number, passes?: number | null }} range
 * @returns {Loop}
 */
export function createLoop({ start, end, passes = null }) {
  return { start, end, pass: 1, passes, releasing: false };
}

/**
 * Whether the show goes round again at the end of this pass.
 * @param {Loop} loop
 */
export const goesOn = (loop) => !loop.releasing && (loop.passes === null || loop.pass < loop.passes);

/**
 * The state's `loop`: the range as bar:beat (`to` is its last beat, `end` the beat after it), the
 * pass being played and how many (`of` null: until released), and whether it was released.
 * @param {Loop} loop
 * @param {{ positionOf: (index: number) => { bar: number, beat: number } }} timeline
 */
export function loopState(loop, timeline) {
  const at = (/** @type {number} */ index) => {
    const p = timeline.positionOf(index);
    return { bar: p.bar, beat: p.beat, index };
  };
  return { from: at(loop.start), to: at(loop.end - 1), end: loop.end, pass: loop.pass, of: loop.passes, releasing: loop.releasing };
}

/**
 * Is a value a usable state `loop` (from the network)?
 * @param {unknown} value
 * @returns {value is { from: { index: number }, end: number, pass: number, of: number | null, releasing: boolean }}
 */
export function isLoopState(value) {
  if (typeof value !== 'object' || value === null) return false;
  const l = /** @type {Record<string, any>} */ (value);
  return (
    typeof l.from === 'object' &&
    l.from !== null &&
    Number.isInteger(l.from.index) &&
    Number.isInteger(l.end) &&
    l.end > l.from.index &&
    Number.isInteger(l.pass) &&
    (l.of === null || Number.isInteger(l.of))
  );
}

/**
 * Whether the show comes back to the loop's start after beat `index`'s pass: the loop goes on and
 * the beat is inside the range.
 * @param {{ from: { index: number }, end: number, pass: number, of: number | null, releasing?: boolean } | null | undefined} state the state's `loop`
 * @param {number} index
 */
export function loopsBackFrom(state, index) {
  if (!state || state.releasing) return false;
  if (state.of !== null && state.pass >= state.of) return false;
  return index >= state.from.index && index < state.end;
}

/**
 * A loop saved in a crash-resume point (docs/how-to/venue-server-unattended.md#crash-resume), with the anchor it was saved
 * with, carried forward to `now`: the passes the show would have played while the server was down.
 * A loop still going round comes back on the pass sounding now, anchored on that pass's first beat;
 * one whose last pass (or released pass) ended meanwhile is over (null), the anchor then running on
 * past its end as the show would have. Before the loop's end nothing moves.
 * @param {Loop} loop as saved
 * @param {{ index: number, time: number }} anchor a playing show's anchor (beat `index` sounded at `time`)
 * @param {number} now server ms
 * @param {{ msAt: (index: number) => number, tempoFactor: number }} timing the written time of a beat, and the tempo factor
 * @returns {{ loop: Loop | null, anchor: { index: number, time: number } }}
 */
export function resumeLoop(loop, anchor, now, { msAt, tempoFactor }) {
  const untilEnd = msAt(loop.end) - msAt(anchor.index);
  const reached = (now - anchor.time) * tempoFactor;
  if (anchor.index >= loop.end || reached < untilEnd) return { loop: { ...loop }, anchor };
  const left = loop.releasing ? 0 : loop.passes === null ? Infinity : loop.passes - loop.pass;
  if (left === 0) return { loop: null, anchor };
  const passMs = msAt(loop.end) - msAt(loop.start);
  // Round trips back to the start the show took; the last one started the pass sounding now.
  const wanted = Math.floor((reached - untilEnd) / passMs) + 1;
  const rounds = Math.min(wanted, left);
  const passStart = { index: loop.start, time: anchor.time + (untilEnd + (rounds - 1) * passMs) / tempoFactor };
  // More round trips than passes left: the last pass ended and the show played on.
  if (wanted > left) return { loop: null, anchor: passStart };
  return { loop: { ...loop, pass: loop.pass + rounds }, anchor: passStart };
}
