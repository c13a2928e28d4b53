// The full stream's `ahead` in pieces (docs/explanation/clock-sync.md#the-flywheel; issue 27): when the show's window
// moves, the engine adds a whole ~8 KB chunk that starts 15 s later. Sent inside one beat's delta
// to every viewer, that chunk was the stream's latency tail (the beat, and the beats queued behind
// it, waited for 5,000 copies of 8 KB). A chunk that starts in the future is not needed yet, so
// the full stream gets it as several smaller chunks of the same shape (keyed by their first beat),
// one per update, every one of them before the beat it starts at. A chunk the show is already in
// (play, seek, tempo) is needed now and goes whole. The items and their order do not change, so
// `aheadItems` (core/client/flywheel.js) reads the same cues once every piece has arrived.

import { isPlainObject } from '#core/protocol/merge-patch.js';

/** A piece stops growing past this many bytes of item JSON (one item bigger than it is a piece alone). */
export const AHEAD_PIECE_BYTES = 512;

/**
 * @typedef {{ i: number }} AheadItemLike
 * @typedef {{ until: number, items: AheadItemLike[] }} ChunkLike
 * @typedef {[key: string, chunk: ChunkLike]} Piece
 */

/**
 * Split one chunk into chunks of at most about `maxBytes` of items, cut at beat boundaries so every
 * piece spans [its key, its until) and the pieces tile the chunk's span.
 * @param {number} from the chunk's first beat (its key)
 * @param {ChunkLike} chunk
 * @param {number} [maxBytes]
 * @returns {Piece[]} oldest first; the first is keyed `from`, the last ends at `chunk.until`
 */
export function splitChunk(from, chunk, maxBytes = AHEAD_PIECE_BYTES) {
  /** @type {Array<{ from: number, items: AheadItemLike[] }>} */
  const groups = [{ from, items: [] }];
  let bytes = 0;
  for (const item of chunk.items) {
    const size = JSON.stringify(item).length;
    const open = /** @type {{ from: number, items: AheadItemLike[] }} */ (groups.at(-1));
    // Items of one beat stay together; a new piece starts at a later beat once this one is full.
    const canCut = open.items.length > 0 && item.i > /** @type {AheadItemLike} */ (open.items.at(-1)).i && item.i > open.from;
    if (canCut && bytes + size > maxBytes) {
      groups.push({ from: item.i, items: [item] });
      bytes = size;
    } else {
      open.items.push(item);
      bytes += size;
    }
  }
  return groups.map((group, g) => [String(group.from), { until: groups[g + 1]?.from ?? chunk.until, items: group.items }]);
}

/** @param {ChunkLike} a @param {ChunkLike} b */
const sameChunk = (a, b) =>
  a === b || (a.until === b.until && (a.items === b.items || JSON.stringify(a.items) === JSON.stringify(b.items)));

/**
 * The current beat of a full state: `position.index` (published beat), else the segment's start.
 * @param {Record<string, any>} state
 * @returns {number | null}
 */
function beatOf(state) {
  for (const holder of [state.position, state.segment]) {
    const index = isPlainObject(holder) ? /** @type {Record<string, unknown>} */ (holder).index : undefined;
    if (typeof index === 'number' && Number.isFinite(index)) return index;
  }
  return null;
}

/**
 * Turns each full state's `ahead` into the piecewise one the full stream publishes. Stateful: feed
 * it every state in order (and `reset` on a new epoch).
 * @param {{ pieceBytes?: number }} [options]
 */
export function createAheadStager({ pieceBytes = AHEAD_PIECE_BYTES } = {}) {
  /** chunk key → the engine's chunk, its pieces and how many of them are out
   * @type {Map<string, { chunk: ChunkLike, pieces: Piece[], sent: number }>} */
  let tracked = new Map();

  /**
   * @param {string} key
   * @param {ChunkLike} chunk
   * @param {number | null} beat
   */
  function track(key, chunk, beat) {
    const from = Number(key);
    // Already playing in it (or no beat to tell): the show needs all of it now.
    const whole = beat === null || !Number.isFinite(from) || from <= beat || !Array.isArray(chunk.items);
    const pieces = whole ? [/** @type {Piece} */ ([key, chunk])] : splitChunk(from, chunk, pieceBytes);
    tracked.set(key, { chunk, pieces, sent: 0 });
  }

  return {
    /**
     * The state the full stream publishes for this full state: the same, with `ahead` in pieces.
     * @template {Record<string, any>} S
     * @param {S} state
     * @returns {S}
     */
    stage(state) {
      if (!isPlainObject(state.ahead)) {
        tracked = new Map();
        return state;
      }
      const beat = beatOf(state);
      /** @type {Map<string, { chunk: ChunkLike, pieces: Piece[], sent: number }>} */
      const previous = tracked;
      tracked = new Map();
      for (const [key, chunk] of Object.entries(state.ahead)) {
        const known = previous.get(key);
        if (known && isPlainObject(chunk) && sameChunk(known.chunk, /** @type {ChunkLike} */ (chunk))) tracked.set(key, known);
        else track(key, /** @type {ChunkLike} */ (chunk), beat);
      }
      // One more piece per update; and every piece out before (or at) the beat it starts at.
      let budget = 1;
      /** @type {Record<string, ChunkLike>} */
      const ahead = {};
      for (const entry of tracked.values()) {
        while (entry.sent < entry.pieces.length) {
          const due = beat === null || Number(entry.pieces[entry.sent][0]) <= beat + (entry.pieces.length - entry.sent);
          if (!due && budget === 0) break;
          if (!due) budget -= 1;
          entry.sent += 1;
        }
        for (const [key, piece] of entry.pieces.slice(0, entry.sent)) ahead[key] = piece;
      }
      return { ...state, ahead };
    },
    /**
     * A new epoch starts from this full state: its snapshot carries every chunk whole, so they
     * count as sent.
     * @param {Record<string, any>} state
     */
    reset(state) {
      tracked = new Map();
      if (!isPlainObject(state.ahead)) return;
      for (const [key, value] of Object.entries(state.ahead)) {
        const chunk = /** @type {ChunkLike} */ (value);
        tracked.set(key, { chunk, pieces: [[key, chunk]], sent: 1 });
      }
    },
  };
}
