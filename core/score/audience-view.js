// What the audience sees from the cues: view cues merge into the current view (RFC 7396), so a
// cue that only sets `text` keeps the colour. Seeking recomputes the view from the start, so
// the state after a jump equals the state reached by playing there.

import { applyMergePatch, isPlainObject } from '#core/protocol/merge-patch.js';

/**
 * Public URL (relative to the audience page) of a score asset.
 * @param {{ src: string }} asset
 * @returns {string}
 */
export function mediaUrl(asset) {
  return `media/${asset.src}`;
}

/**
 * Turn a view cue (or the score's initial view) into a merge patch of the audience view:
 * image asset ids become URLs; `data` is itself a merge patch.
 * @param {Record<string, unknown>} view
 * @param {Map<string, { src: string }>} assets by id
 * @returns {Record<string, unknown>}
 */
export function viewPatch(view, assets) {
  /** @type {Record<string, unknown>} */
  const patch = {};
  for (const [key, value] of Object.entries(view)) {
    if (key === 'image' && typeof value === 'string') {
      const asset = assets.get(value);
      patch.image = asset ? mediaUrl(asset) : null;
    } else {
      patch[key] = value;
    }
  }
  return patch;
}

/**
 * Merge a view patch into a view.
 * @param {Record<string, unknown>} view
 * @param {Record<string, unknown>} patch
 * @returns {Record<string, unknown>}
 */
export function mergeView(view, patch) {
  const merged = applyMergePatch(view, patch);
  return isPlainObject(merged) ? merged : {};
}
