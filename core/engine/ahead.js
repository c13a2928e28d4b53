// The cues due soon, sent ahead in the state (docs/README.md, state `ahead`): a viewer holding them
// shows each view change and plays each sound at its time even if the network goes away. The
// window is two consecutive chunks of about AHEAD_CHUNK_MS each, keyed by their first beat, so
// when the show enters the second chunk the first is dropped and one new chunk is added: a merge
// patch carries each cue once, and a viewer always holds the next 15–30 s.

import { viewPatch, mediaUrl } from '#core/score/audience-view.js';

export const AHEAD_CHUNK_MS = 15_000;
/** A chunk stops growing past this many bytes of JSON (a score with huge views sends less ahead). */
export const AHEAD_CHUNK_BYTES = 8192;

/**
 * @typedef {{ i: number, at: number, view?: Record<string, unknown>, del?: string[][], audio?: { cue: number, src: string, gain: number } }} AheadItem
 * @typedef {{ from: number, until: number, items: AheadItem[] }} AheadChunk
 */

/**
 * Split a view merge patch into its null-free part and the paths it deletes: the state stream
 * drops nulls (they mean "delete" in a merge patch of the state itself).
 * @param {Record<string, unknown>} patch
 * @param {string[]} [path]
 * @param {string[][]} [del]
 * @returns {{ set: Record<string, unknown>, del: string[][] }}
 */
export function splitDeletes(patch, path = [], del = []) {
  /** @type {Record<string, unknown>} */
  const set = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) del.push([...path, key]);
    else if (typeof value === 'object' && !Array.isArray(value))
      set[key] = splitDeletes(/** @type {Record<string, unknown>} */ (value), [...path, key], del).set;
    else set[key] = value;
  }
  return { set, del };
}

/**
 * The cues of beats `from` up to about `chunkMs` later (at least one beat), as ahead items.
 * @param {object} options
 * @param {import('#core/score/cue-index.js').CueIndex} options.cueIndex
 * @param {Array<any>} options.cues the sorted cues the index was built on
 * @param {number} options.from first beat index
 * @param {number} options.totalBeats
 * @param {(index: number) => number} options.timeOfBeat server ms when a beat sounds
 * @param {Map<string, any>} options.assets
 * @param {number} [options.chunkMs]
 * @param {number} [options.maxBytes]
 * @returns {AheadChunk}
 */
export function buildAheadChunk({
  cueIndex,
  cues,
  from,
  totalBeats,
  timeOfBeat,
  assets,
  chunkMs = AHEAD_CHUNK_MS,
  maxBytes = AHEAD_CHUNK_BYTES,
}) {
  const start = timeOfBeat(from);
  /** @type {AheadItem[]} */
  const items = [];
  let bytes = 0;
  let until = from + 1;
  // Beats with no cue cost nothing: walk the cues, and stop at the first beat past the time or size budget.
  for (let c = cueIndex.firstAt(from); c < cues.length; c += 1) {
    const cue = cues[c];
    if (cue.index >= totalBeats) break;
    const at = timeOfBeat(cue.index);
    if (cue.index > from && (at - start >= chunkMs || bytes >= maxBytes)) break;
    until = cue.index + 1;
    /** @type {AheadItem} */
    // Exact, like the segment: the page shows a view change and its beat at the same instant.
    const item = { i: cue.index, at };
    if (cue.view) {
      const { set, del } = splitDeletes(viewPatch(cue.view, assets));
      item.view = set;
      if (del.length) item.del = del;
    } else if (cue.audio) {
      const asset = assets.get(cue.audio.asset);
      if (!asset) continue;
      item.audio = { cue: cue.n, src: mediaUrl(asset), gain: cue.audio.gain ?? 1 };
    } else continue; // OSC cues go to the musicians, not the audience
    items.push(item);
    bytes += JSON.stringify(item).length;
  }
  // Without cues near the end of the budget, the chunk still spans its full time.
  while (until < totalBeats && timeOfBeat(until) - start < chunkMs && bytes < maxBytes) until += 1;
  return { from, until: Math.min(Math.max(until, from + 1), totalBeats), items };
}

/**
 * The `ahead` member of the state: chunks keyed by their first beat.
 * @param {AheadChunk[]} chunks
 * @returns {Record<string, { until: number, items: AheadItem[] }>}
 */
export function aheadState(chunks) {
  /** @type {Record<string, { until: number, items: AheadItem[] }>} */
  const out = {};
  for (const chunk of chunks) out[String(chunk.from)] = { until: chunk.until, items: chunk.items };
  return out;
}
