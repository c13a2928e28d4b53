// One SSE/poll feed cache (feed-cache.js) per show, stream (full or lean, docs/reference/audience-protocol.md#endpoints)
// and isolate: a show's viewers must only ever read their own show's snapshot (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge). Show names come from
// the path, so the map is bounded: the least recently used show's cache is dropped beyond
// MAX_SHOWS (it is refilled by one root RPC when that show is read again).

import { createFeedCache } from './feed-cache.js';

/** Shows whose feed one isolate keeps at once. */
export const MAX_SHOWS = 64;

/**
 * @param {{ ttlMs: number, limit: number }} options as createFeedCache
 */
export function createFeedCaches(options) {
  /** @type {Map<string, ReturnType<typeof createFeedCache>>} insertion order = least recently used first */
  const caches = new Map();
  return {
    /**
     * @param {string | null} show null: the default show
     * @param {'full' | 'lean'} [stream]
     */
    forShow(show, stream = 'full') {
      const key = `${show === null ? '' : `s:${show}`}${stream === 'lean' ? '|lean' : ''}`;
      let cache = caches.get(key);
      if (cache) {
        caches.delete(key);
      } else {
        cache = createFeedCache({ ...options, stream });
        if (caches.size >= MAX_SHOWS) caches.delete(/** @type {string} */ (caches.keys().next().value));
      }
      caches.set(key, cache);
      return cache;
    },
    size: () => caches.size,
  };
}
