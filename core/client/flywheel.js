// What a viewer computes itself from the state while the show plays (docs/reference/audience-protocol.md#endpoints and
// `ahead`): which beat is sounding at any server time, when the next one sounds, and the view
// at any time within the window of cues sent ahead. No message per beat is needed, so the page
// keeps going through a network outage.

import { beatInSegment, isSegment } from '#core/engine/segment.js';
import { applyMergePatch, isPlainObject } from '#core/protocol/merge-patch.js';

/**
 * @typedef {import('../engine/segment.js').Segment} Segment
 * @typedef {{ index: number, bar: number, beat: number, beats: number, at: number, bpm: number }} FlywheelBeat
 */

/**
 * The beat sounding at `serverMs` (the last one whose time has come), or null before the
 * anchor. Stops at the segment's last beat: past `until`, only the server knows what follows.
 * @param {Segment} segment
 * @param {number} serverMs
 * @returns {FlywheelBeat | null}
 */
export function beatAt(segment, serverMs) {
  if (serverMs < segment.at) return null;
  const last = segment.until - 1;
  let index;
  if (segment.step === 0) index = Math.min(last, segment.index + Math.floor(((serverMs - segment.at) * segment.bpm) / 60000 + 1e-9));
  else {
    index = segment.index;
    let at = segment.at;
    // Bounded by the segment length (checked by isSegment).
    while (index < last) {
      const next = at + 60000 / (segment.bpm + segment.step * (index - segment.index));
      if (next > serverMs) break;
      at = next;
      index += 1;
    }
  }
  const beat = beatInSegment(segment, index);
  // Floating-point: the closed form may land one beat late or early at an exact boundary.
  if (beat.at > serverMs && index > segment.index) return beatInSegment(segment, index - 1);
  return beat;
}

/**
 * The fractional beat index sounding at `serverMs` (3.25: a quarter of the way through beat 3),
 * for what moves smoothly between beats (a graphic score's strip), or null before the anchor.
 * Holds at the end of the segment's last beat.
 * @param {Segment} segment
 * @param {number} serverMs
 * @returns {number | null}
 */
export function fractionalIndexAt(segment, serverMs) {
  const beat = beatAt(segment, serverMs);
  if (!beat) return null;
  const fraction = ((serverMs - beat.at) * beat.bpm) / 60000;
  return beat.index + Math.min(1, Math.max(0, fraction));
}

/**
 * The beat after `beat` in the segment, or null at its end.
 * @param {Segment} segment
 * @param {number} index
 * @returns {FlywheelBeat | null}
 */
export function nextBeat(segment, index) {
  return index + 1 < segment.until ? beatInSegment(segment, index + 1) : null;
}

/**
 * What follows a segment that ends at a rehearsal loop's end (docs/how-to/rehearse.md#rehearsing): the loop's
 * start, sounding when the segment's `until` beat would have (`segment.then`), or null.
 * @param {Segment & { then?: unknown }} segment
 * @returns {Segment | null}
 */
export function followingSegment(segment) {
  const then = segment.then;
  return isSegment(then) ? then : null;
}

/**
 * The segment of a state when the flywheel applies to it (playing, well-formed), else null.
 * @param {Record<string, any> | null} state
 * @returns {Segment | null}
 */
export function flywheelSegment(state) {
  return state && state.transport === 'playing' && isSegment(state.segment) ? state.segment : null;
}

/**
 * Every item sent ahead, in order (beat, then score order), whatever the chunk.
 * @param {Record<string, any> | null} state
 * @returns {Array<{ i: number, at: number, view?: Record<string, unknown>, del?: string[][], audio?: any }>}
 */
export function aheadItems(state) {
  if (!state || !isPlainObject(state.ahead)) return [];
  const chunks = Object.entries(state.ahead)
    .map(([from, chunk]) => ({ from: Number(from), items: isPlainObject(chunk) && Array.isArray(chunk.items) ? chunk.items : [] }))
    .filter((c) => Number.isFinite(c.from))
    .sort((a, b) => a.from - b.from);
  return chunks.flatMap((c) => c.items.filter((item) => isPlainObject(item) && Number.isFinite(item.at) && Number.isFinite(item.i)));
}

/**
 * Apply one ahead item's view change (its null-free patch, then its deletions) to a view.
 * @param {Record<string, unknown>} view
 * @param {{ view?: Record<string, unknown>, del?: string[][] }} item
 * @returns {Record<string, unknown>}
 */
export function applyAheadView(view, item) {
  let next = /** @type {Record<string, unknown>} */ (applyMergePatch(view, item.view ?? {}));
  for (const path of Array.isArray(item.del) ? item.del : []) {
    if (!Array.isArray(path) || path.length === 0) continue;
    /** @type {Record<string, unknown>} */
    let patch = {};
    const root = patch;
    path.slice(0, -1).forEach((key) => {
      patch[key] = {};
      patch = /** @type {Record<string, unknown>} */ (patch[key]);
    });
    patch[path[path.length - 1]] = null;
    next = /** @type {Record<string, unknown>} */ (applyMergePatch(next, root));
  }
  return next;
}

/**
 * The views the page will show next: the state's `view` (the view when the ahead window began,
 * at its own `at`), then the view after each later view item, at that item's time.
 * @param {Record<string, any>} state
 * @returns {Array<{ at: number | null, view: Record<string, unknown> }>} at null = now
 */
export function plannedViews(state) {
  const base = isPlainObject(state.view) ? state.view : {};
  const baseAt = Number.isFinite(base.at) ? /** @type {number} */ (base.at) : null;
  /** @type {Array<{ at: number | null, view: Record<string, unknown> }>} */
  const out = [{ at: baseAt, view: base }];
  let view = base;
  for (const item of aheadItems(state)) {
    if (!item.view && !item.del) continue;
    // Items up to the base's own time are already in it.
    if (baseAt !== null && item.at <= baseAt) continue;
    view = { ...applyAheadView(view, item), at: item.at };
    out.push({ at: item.at, view });
  }
  return out;
}
