// How the root keeps a stream's replay window in storage (stream-store.js for the full stream,
// lean-feed.js for the lean one): one key per delta, `<prefix><seq, 16 digits>` so a prefix list
// returns them in seq order, and deletions in batches of the most keys storage takes at once.

/** Storage takes at most this many keys per delete or put. */
export const STORAGE_BATCH = 128;

/**
 * @param {string} prefix the stream's key prefix
 * @returns {(seq: number) => string} the storage key of the delta with seq
 */
export function deltaKeys(prefix) {
  return (seq) => `${prefix}${String(seq).padStart(16, '0')}`;
}

/**
 * Delete stored deltas, queued (the output gate holds replies until storage has it).
 * @param {DurableObjectStorage} storage
 * @param {(seq: number) => string} keyOf
 * @param {{ seq: number }[]} entries
 */
export function forgetDeltas(storage, keyOf, entries) {
  const keys = entries.map((entry) => keyOf(entry.seq));
  for (let i = 0; i < keys.length; i += STORAGE_BATCH) void storage.delete(keys.slice(i, i + STORAGE_BATCH));
}
