// How the bench's phones parse and apply envelopes (viewers.js). `each`: every phone parses the
// text and merges it into its own state, as the app does on its own CPU — 5,000 phones then cost
// the load generator 5,000 times the work, on the same two cores as the server. `shared`: phones
// that receive the same bytes share one parse, and phones whose state is the same object share
// one merge (applyEnvelope never mutates, so the result is exactly what each would compute); the
// figure is then the server's and the sockets', not the load generator's CPU.

import { applyEnvelope } from '#core/stream/state-stream.js';

/** Texts remembered (a few updates: phones of one process receive each within milliseconds). */
const KEEP = 8;
/** WeakMap key standing for "no state yet". */
const NO_STATE = {};

/**
 * @param {'shared' | 'each'} mode
 * @returns {{ parse: (text: string) => any, apply: (state: Record<string, unknown> | null, text: string, envelope: any) => Record<string, unknown> }}
 */
export function createEnvelopeCache(mode) {
  if (mode === 'each') return { parse: (text) => JSON.parse(text), apply: (state, _text, envelope) => applyEnvelope(state, envelope) };
  /** @type {Map<string, { envelope: any, results: WeakMap<object, Record<string, unknown>> }>} */
  const recent = new Map();
  const entryOf = (text) => {
    let entry = recent.get(text);
    if (!entry) {
      entry = { envelope: JSON.parse(text), results: new WeakMap() };
      recent.set(text, entry);
      if (recent.size > KEEP) recent.delete(/** @type {string} */ (recent.keys().next().value));
    }
    return entry;
  };
  return {
    parse: (text) => entryOf(text).envelope,
    apply(state, text, envelope) {
      const { results } = entryOf(text);
      const key = state ?? NO_STATE;
      let next = results.get(key);
      if (!next) {
        next = applyEnvelope(state, envelope);
        results.set(key, next);
      }
      return next;
    },
  };
}
