// Bounded work per client (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): one public address holds at most
// ADDRESS_MAX_SOCKETS WebSocket viewers on a shard, and never more than half of one, so it can
// neither fill a shard nor, since the Worker then refuses it instead of trying the next shard, the
// show; and at most ADDRESS_MAX_STREAMS open SSE streams and long polls per isolate. The venue's
// address and loopback are not capped (overflow viewers from the hall share the venue's address).

/** Header the Worker sets (and only the Worker: a client's copy is removed) with a capped client's address. */
export const CLIENT_HEADER = 'x-tutti-client';
/** Marks a shard's 429 that means "this address holds enough sockets here". */
export const ADDRESS_FULL_HEADER = 'x-tutti-address-full';
const TAG_PREFIX = 'addr=';
/** A socket tag is at most 256 characters; an address is far shorter (clientAddress caps it at 64). */
const MAX_ADDRESS_CHARS = 64;

/**
 * The shard's view: the tag a capped viewer's socket carries, or null for an uncapped one.
 * @param {Request} request as the Worker forwarded it
 * @returns {string | null}
 */
export function addressTag(request) {
  const address = request.headers.get(CLIENT_HEADER);
  return address && address.length <= MAX_ADDRESS_CHARS ? `${TAG_PREFIX}${address}` : null;
}

/**
 * @param {number} maxSockets ADDRESS_MAX_SOCKETS
 * @param {number} shardCapacity SHARD_CAPACITY
 * @returns {number} sockets one address may hold on one shard
 */
export function socketsPerAddress(maxSockets, shardCapacity) {
  return Math.max(1, Math.min(maxSockets, Math.floor(shardCapacity / 2)));
}

/** @type {Map<string, number>} address → open SSE streams and long polls in this isolate */
const openStreams = new Map();

/**
 * Count one more open stream for `address`; null when it already holds `max`.
 * @param {string} address
 * @param {number} max
 * @returns {(() => void) | null} call once when the stream ends
 */
export function openStream(address, max) {
  const held = openStreams.get(address) ?? 0;
  if (held >= max) return null;
  openStreams.set(address, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const now = (openStreams.get(address) ?? 1) - 1;
    if (now <= 0) openStreams.delete(address);
    else openStreams.set(address, now);
  };
}

/**
 * A response whose body calls `release` when it ends, fails or the client goes away.
 * @param {Response} response
 * @param {() => void} release
 * @returns {Response}
 */
export function releaseWhenDone(response, release) {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, response);
}
