// GET /ws: the Worker picks a shard for each viewer. Shards fill in order (0, 1, 2, …) so a
// small audience wakes one shard and the root pushes to as few objects as possible. Each
// isolate remembers the first shard that still had room; a full shard answers 503 with
// FULL_HEADER and the Worker tries the next one (at most SHARD_COUNT tries), so fullness is
// decided by the only object that knows it exactly: the shard itself.

import { FULL_HEADER } from '../shard/shard.js';
import { edgeError } from './http.js';
import { shardStub } from '../env/stubs.js';
import { ADDRESS_FULL_HEADER, CLIENT_HEADER } from '../guards/address-caps.js';

/** Per show (key '' is the default show): the first shard that still had room. Bounded like feed-caches.js. */
const cursors = new Map();
const MAX_CURSORS = 64;

/**
 * @param {Request} request a WebSocket upgrade
 * @param {Env} env
 * @param {{ shardCount: number }} config
 * @param {string | null} [show] the checked show name (show-path.js), null for the default show
 * @param {string | null} [cappedAddress] a public client's address, capped per shard (address-caps.js); null: not capped
 */
export async function connectViewer(request, env, { shardCount }, show = null, cappedAddress = null) {
  const key = show ?? '';
  const start = (cursors.get(key) ?? 0) % shardCount;
  for (let i = 0; i < shardCount; i += 1) {
    const index = (start + i) % shardCount;
    const headers = new Headers(request.headers);
    if (cappedAddress) headers.set(CLIENT_HEADER, cappedAddress);
    else headers.delete(CLIENT_HEADER);
    const response = await shardStub(env, index, show).fetch(new Request(request.url, { method: 'GET', headers }));
    if (response.status === 503 && response.headers.has(FULL_HEADER)) continue;
    // Not the next shard: an address that may not fill one may not fill the show either.
    if (response.status === 429 && response.headers.has(ADDRESS_FULL_HEADER))
      return edgeError('TOO_MANY_SOCKETS', {
        message: 'this address already holds as many viewers as it may; close one first',
        headers: {
          'retry-after': '30',
        },
      });
    cursors.delete(key);
    if (cursors.size >= MAX_CURSORS) cursors.delete(cursors.keys().next().value);
    cursors.set(key, index);
    return response;
  }
  return edgeError('EDGE_FULL', { message: `all ${shardCount} shards are full; try again shortly`, headers: { 'retry-after': '5' } });
}
