// Cues sorted by beat index, with the audience view precomputed at checkpoints, so that a seek
// (which must recompute the view "as if played up to there", docs/reference/score-format.md) costs a binary
// search plus at most CHECKPOINT_EVERY merges, however many cues the score has, and publishing
// a beat finds its cues by binary search instead of scanning from the first cue.

import { viewPatch, mergeView } from './audience-view.js';

/** View cues between two stored views: bounds the merges a seek does (and the memory kept). */
export const CHECKPOINT_EVERY = 64;

/**
 * @typedef {object} CueIndex
 * @property {(index: number) => number} firstAt position in the sorted list of the first cue at or after beat `index`
 * @property {(index: number) => Array<any>} cuesAt the cues on beat `index`, in score order
 * @property {(from: number, to: number) => Array<any>} cuesBetween the cues on beats from..to (inclusive)
 * @property {(index: number) => Record<string, unknown>} viewAt the view after every view cue up to and including beat `index`
 * @property {() => number} merges view merges done by viewAt since creation (tests count work with it)
 */

/**
 * Index a score's cues (each with its beat `index`, sorted by index then score order).
 * @param {object} options
 * @param {Array<any>} options.cues sorted cues, each with `index`
 * @param {Record<string, unknown> | undefined} options.initialView the score's `view`
 * @param {Map<string, any>} options.assets asset id → asset
 * @param {number} [options.checkpointEvery]
 * @returns {CueIndex}
 */
export function createCueIndex({ cues, initialView, assets, checkpointEvery = CHECKPOINT_EVERY }) {
  const initial = initialView ? mergeView({}, viewPatch(initialView, assets)) : {};
  // Only view cues change the view: keep their positions, and the view after every Kth of them.
  const viewCues = [];
  for (let i = 0; i < cues.length; i += 1) if (cues[i].view) viewCues.push(i);
  /** @type {Array<Record<string, unknown>>} checkpoints[c] = view after the first c·K view cues (checkpoints[0] = initial) */
  const checkpoints = [initial];
  // One working copy patched in place, copied at each checkpoint: loading stays linear in the
  // size of the cues, not cues × size of the view.
  const running = copyJson(initial);
  for (let v = 0; v < viewCues.length; v += 1) {
    patchInPlace(running, viewPatch(cues[viewCues[v]].view, assets));
    if ((v + 1) % checkpointEvery === 0) checkpoints.push(copyJson(running));
  }
  let merges = 0;

  /** First position in 0..length whose key is greater than `limit` (keys ascend). */
  function upperBound(length, keyAt, limit) {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keyAt(mid) <= limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  const firstAt = (index) => upperBound(cues.length, (i) => cues[i].index, index - 1);

  function cuesBetween(from, to) {
    const out = [];
    for (let i = firstAt(from); i < cues.length && cues[i].index <= to; i += 1) out.push(cues[i]);
    return out;
  }

  return {
    firstAt,
    cuesAt: (index) => cuesBetween(index, index),
    cuesBetween,
    viewAt(index) {
      // How many view cues are at or before `index`, then merge from the nearest checkpoint.
      const count = upperBound(viewCues.length, (v) => cues[viewCues[v]].index, index);
      const c = Math.floor(count / checkpointEvery);
      if (c * checkpointEvery === count) return checkpoints[c];
      const view = copyJson(checkpoints[c]);
      for (let v = c * checkpointEvery; v < count; v += 1) {
        patchInPlace(view, viewPatch(cues[viewCues[v]].view, assets));
        merges += 1;
      }
      return view;
    },
    merges: () => merges,
  };
}

/** @param {any} value a JSON value */
function copyJson(value) {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== 'object' || value === null) return value;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(value)) out[key] = copyJson(value[key]);
  return out;
}

/** RFC 7396 merge of `patch` into `target`, mutating `target` (which nobody else holds). */
function patchInPlace(target, patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete target[key];
    else if (typeof value === 'object' && !Array.isArray(value)) {
      if (typeof target[key] !== 'object' || target[key] === null || Array.isArray(target[key])) target[key] = {};
      patchInPlace(target[key], value);
    } else target[key] = copyJson(value);
  }
}
