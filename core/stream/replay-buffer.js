// The last N deltas, already serialized, so a client that missed a few gets exactly those
// (SSE Last-Event-ID, poll ?since, WS after a short gap) instead of a whole snapshot.

import { deltasAfter } from './catch-up.js';

/**
 * @typedef {{ seq: number, json: string }} ReplayEntry
 * @typedef {object} ReplayBuffer
 * @property {(entry: ReplayEntry) => void} push add the delta for entry.seq (must be the next seq)
 * @property {(seq: number) => ReplayEntry[] | null} since the deltas after `seq`, or null when `seq` is outside the window
 * @property {() => void} clear forget everything (new epoch)
 * @property {() => number} size
 * @property {() => ReplayEntry[]} entries the kept deltas, oldest first (a copy)
 */

/**
 * A fixed-size ring of serialized deltas, oldest dropped first.
 * @param {number} limit how many deltas to keep (≥ 1)
 * @returns {ReplayBuffer}
 */
export function createReplayBuffer(limit) {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('replay limit must be a positive integer');
  /** @type {ReplayEntry[]} */
  let entries = [];

  return {
    push(entry) {
      const last = entries.at(-1);
      if (last && entry.seq !== last.seq + 1) entries = []; // a hole: older entries can no longer chain
      entries.push(entry);
      if (entries.length > limit) entries.splice(0, entries.length - limit);
    },
    since(seq) {
      return deltasAfter(entries, seq, entries.at(-1)?.seq ?? null);
    },
    clear() {
      entries = [];
    },
    size() {
      return entries.length;
    },
    entries() {
      return entries.slice();
    },
  };
}
