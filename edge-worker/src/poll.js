// GET /poll?since=SEQ[&wait=MS] (README.md, "Audience endpoints"), answered from the isolate's feed
// cache.

import { parseSeq } from '../../core/protocol/sse.js';
import { CORS, sleep } from './http.js';

const MAX_WAIT_MS = 30_000;

/**
 * @param {URL} url
 * @param {object} deps
 * @param {ReturnType<typeof import('./feed-cache.js').createFeedCache>} deps.cache
 * @param {any} deps.root
 * @param {number} deps.tickMs
 */
export async function servePoll(url, { cache, root, tickMs }) {
  const since = parseSeq(url.searchParams.get('since') ?? undefined);
  // As on the venue (README.md, audience endpoints): a client on another epoch needs the snapshot,
  // whatever its seq (the edge's own venue snapshots start epochs of their own).
  const epoch = url.searchParams.get('epoch');
  const rawWait = Number(url.searchParams.get('wait') ?? 0);
  const wait = Number.isFinite(rawWait) ? Math.min(Math.max(0, Math.floor(rawWait)), MAX_WAIT_MS) : 0;
  const deadline = Date.now() + wait;
  let items = [];
  // Bounded: at most wait / tickMs + 1 rounds.
  for (;;) {
    const feed = await cache.current(root);
    items = epoch && feed.epoch && epoch !== feed.epoch ? cache.after(feed, null) : cache.after(feed, since);
    if (items.length > 0 || Date.now() + tickMs > deadline) break;
    await sleep(tickMs);
  }
  return new Response(`[${items.map((item) => item.json).join(',')}]`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...CORS },
  });
}
