// GET /poll?since=SEQ[&wait=MS] (docs/reference/audience-protocol.md#endpoints), answered from the isolate's feed
// cache.

import { parseStreamQuery, resumePoint } from '#core/stream/query.js';
import { CORS, edgeError, sleep } from './http.js';

/**
 * @param {URL} url
 * @param {object} deps
 * @param {ReturnType<typeof import('./feed-cache.js').createFeedCache>} deps.cache
 * @param {any} deps.root
 * @param {number} deps.tickMs
 */
export async function servePoll(url, { cache, root, tickMs }) {
  const params = url.searchParams;
  const query = parseStreamQuery({
    since: params.get('since'),
    wait: params.get('wait'),
    epoch: params.get('epoch'),
    stream: params.get('stream'),
  });
  if (!query.ok) return edgeError(query.code, { headers: CORS });
  const deadline = Date.now() + query.wait;
  let items = [];
  // Bounded: at most wait / tickMs + 1 rounds.
  for (;;) {
    const feed = await cache.current(root);
    // As on the venue: a client on another epoch needs the snapshot, whatever its seq (the
    // edge's own venue snapshots start epochs of their own).
    items = cache.after(feed, resumePoint(query, feed.epoch));
    if (items.length > 0 || Date.now() + tickMs > deadline) break;
    await sleep(tickMs);
  }
  return new Response(`[${items.map((item) => item.json).join(',')}]`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...CORS },
  });
}
