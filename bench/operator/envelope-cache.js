// How the bench's phones parse and apply envelopes (viewers.js). `each`: every phone decodes and
// parses the bytes and merges the envelope into its own state, as the app does on its own CPU —
// 5,000 phones then cost the load generator 5,000 times the work, on the same two cores as the
// server. `shared`: phones that receive the same bytes share one decode and one parse, and phones
// whose state is the same object share one merge (applyEnvelope never mutates, so the result is
// exactly what each would compute); the figure is then the server's and the sockets', not the
// load generator's CPU. The same bytes are found without decoding them per phone: a short key
// (the message's length and first bytes, which hold its type, epoch and seq) finds the entry and
// a byte compare (memcmp) confirms it; decoding and hashing a seek's 7 KB of text for each of a
// process's 2,500 phones set the seek's tail (the A/B: docs/reference/benchmarks.md).

import { applyEnvelope } from '#core/stream/state-stream.js';

/** Messages remembered (a few updates: phones of one process receive each within milliseconds). */
const KEEP = 8;
/** Bytes of a message's start in its key: enough for `{"v":1,"type":…,"epoch":…,"seq":…`. */
const KEY_BYTES = 96;
/** WeakMap key standing for "no state yet". */
const NO_STATE = {};

/**
 * @typedef {{ envelope: any, bytes: Buffer | null, results: WeakMap<object, Record<string, unknown>> | null }} EnvelopeEntry
 *   bytes: what it was parsed from (shared entries); results: merges per previous state (shared entries)
 * @typedef {{ read: (bytes: Buffer) => EnvelopeEntry, apply: (state: Record<string, unknown> | null, entry: EnvelopeEntry) => Record<string, unknown> }} EnvelopeCache
 */

/**
 * @param {'shared' | 'each'} mode
 * @returns {EnvelopeCache} read: the parsed message (throws on bad JSON); apply: the state after it
 */
export function createEnvelopeCache(mode) {
  if (mode === 'each')
    return {
      read: (bytes) => ({ envelope: JSON.parse(bytes.toString()), bytes: null, results: null }),
      apply: (state, entry) => applyEnvelope(state, entry.envelope),
    };
  /** @type {Map<string, EnvelopeEntry>} */
  const recent = new Map();
  return {
    read(bytes) {
      const key = `${bytes.length}:${bytes.toString('latin1', 0, KEY_BYTES)}`;
      const known = recent.get(key);
      if (known && /** @type {Buffer} */ (known.bytes).equals(bytes)) return known;
      const entry = { envelope: JSON.parse(bytes.toString()), bytes: Buffer.from(bytes), results: new WeakMap() };
      // Same key, other bytes (never from one server's stream, whose type/epoch/seq differ): the newest wins.
      recent.delete(key);
      recent.set(key, entry);
      if (recent.size > KEEP) recent.delete(/** @type {string} */ (recent.keys().next().value));
      return entry;
    },
    apply(state, entry) {
      const results = /** @type {WeakMap<object, Record<string, unknown>>} */ (entry.results);
      const key = state ?? NO_STATE;
      let next = results.get(key);
      if (!next) {
        next = applyEnvelope(state, entry.envelope);
        results.set(key, next);
      }
      return next;
    },
  };
}
