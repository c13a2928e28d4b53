// The lean audience state (README.md, `?stream=lean`): the full state without what a viewer can
// compute itself while the show plays — the per-beat `position` and `tempo` (from `segment`) and
// the per-cue `view`/`audio` changes (from `ahead`). Its `view` is the view when the current
// ahead window began, so it changes once per chunk, not once per cue. Pure and runtime-free: the
// server derives it from every full state in order, and a viewer or an edge can do the same.

import { isPlainObject } from '#core/protocol/merge-patch.js';

/** Suffix that gives the lean stream its own epoch id, so no client ever mixes the two seq spaces. */
export const LEAN_EPOCH_SUFFIX = '~lean';

/** The lowest key of an `ahead` object (the beat its window starts at), or null. */
function windowStart(ahead) {
  if (!isPlainObject(ahead)) return null;
  let min = null;
  for (const key of Object.keys(ahead)) {
    const n = Number(key);
    if (Number.isFinite(n) && (min === null || n < min)) min = n;
  }
  return min;
}

/**
 * The lean state following `previous` (the lean state derived from the preceding full state, or
 * null) for the full state `full`. Deriving from a lean state returns an equal lean state.
 * @param {Record<string, unknown> | null} previous
 * @param {Record<string, unknown>} full
 * @returns {Record<string, unknown>}
 */
export function deriveLeanState(previous, full) {
  const lean = { ...full };
  delete lean.audio;
  const flywheel = full.transport === 'playing' && isPlainObject(full.segment) && isPlainObject(full.ahead);
  if (!flywheel) return lean;
  delete lean.position;
  delete lean.tempo;
  // Keep the view of the window's start until the window moves (or the show re-anchors).
  const sameWindow = previous !== null && previous.transport === 'playing' && windowStart(previous.ahead) === windowStart(full.ahead);
  if (sameWindow && previous.view !== undefined) lean.view = previous.view;
  return lean;
}
