// GET /ws: the Worker picks a shard for each viewer. Shards fill in order (0, 1, 2, …) so a
// small audience wakes one shard and the root pushes to as few objects as possible. Each
// isolate remembers the first shard that still had room; a full shard answers 503 with
// FULL_HEADER and the Worker tries the next one (at most SHARD_COUNT tries), so fullness is
// decided by the only object that knows it exactly: the shard itself.

import { FULL_HEADER, SHARD_HEADER } from './shard.js';
import { jsonError } from './http.js';
import { shardStub } from './stubs.js';

let cursor = 0;

/**
 * @param {Request} request a WebSocket upgrade
 * @param {Env} env
 * @param {{ shardCount: number }} config
 */
export async function connectViewer(request, env, { shardCount }) {
  const start = cursor % shardCount;
  for (let i = 0; i < shardCount; i += 1) {
    const index = (start + i) % shardCount;
    const headers = new Headers(request.headers);
    headers.set(SHARD_HEADER, String(index));
    const response = await shardStub(env, index).fetch(new Request(request.url, { method: 'GET', headers }));
    if (response.status === 503 && response.headers.has(FULL_HEADER)) continue;
    cursor = index;
    return response;
  }
  return jsonError(503, 'EDGE_FULL', `all ${shardCount} shards are full; try again shortly`, { 'retry-after': '5' });
}
