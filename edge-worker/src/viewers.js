// GET /ws: the Worker picks a shard for each viewer. Shards fill in order (0, 1, 2, …) so a
// small audience wakes one shard and the root pushes to as few objects as possible. Each
// isolate remembers the first shard that still had room; a full shard answers 503 with
// FULL_HEADER and the Worker tries the next one (at most SHARD_COUNT tries), so fullness is
// decided by the only object that knows it exactly: the shard itself.

import { FULL_HEADER, SHARD_HEADER } from './shard.js';
import { jsonError } from './http.js';
import { stampShow } from './show-identity.js';
import { shardStub } from './stubs.js';

/** Per show (key '' is the default show): the first shard that still had room. Bounded like feed-caches.js. */
const cursors = new Map();
const MAX_CURSORS = 64;

/**
 * @param {Request} request a WebSocket upgrade
 * @param {Env} env
 * @param {{ shardCount: number }} config
 * @param {string | null} [show] the checked show name (show-path.js), null for the default show
 */
export async function connectViewer(request, env, { shardCount }, show = null) {
  const key = show ?? '';
  const start = (cursors.get(key) ?? 0) % shardCount;
  for (let i = 0; i < shardCount; i += 1) {
    const index = (start + i) % shardCount;
    const headers = new Headers(request.headers);
    headers.set(SHARD_HEADER, String(index));
    const response = await shardStub(env, index, show).fetch(stampShow(new Request(request.url, { method: 'GET', headers }), show));
    if (response.status === 503 && response.headers.has(FULL_HEADER)) continue;
    cursors.delete(key);
    if (cursors.size >= MAX_CURSORS) cursors.delete(cursors.keys().next().value);
    cursors.set(key, index);
    return response;
  }
  return jsonError(503, 'EDGE_FULL', `all ${shardCount} shards are full; try again shortly`, { 'retry-after': '5' });
}
