// GET /sse (docs/reference/audience-protocol.md#endpoints): an event stream fed from the isolate's feed cache.
// Resumes from Last-Event-ID or ?since. Streams end after SSE_MAX_MS so every loop is bounded;
// EventSource reconnects by itself with Last-Event-ID and loses nothing.

import { SSE_HEARTBEAT, formatSseEvent } from '#core/protocol/sse.js';
import { parseStreamQuery, resumePoint } from '#core/stream/query.js';
import { CORS, edgeError, sleep } from './http.js';

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

/**
 * @param {Request} request
 * @param {object} deps
 * @param {ReturnType<typeof import('./feed-cache.js').createFeedCache>} deps.cache
 * @param {any} deps.root
 * @param {number} deps.tickMs
 * @param {number} deps.maxMs
 */
export function serveSse(request, { cache, root, tickMs, maxMs }) {
  const params = new URL(request.url).searchParams;
  const query = parseStreamQuery({
    since: params.get('since'),
    lastEventId: request.headers.get('last-event-id'),
    epoch: params.get('epoch'),
    stream: params.get('stream'),
  });
  if (!query.ok) return edgeError(query.code, { headers: CORS });
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();

  async function pump() {
    const endAt = Date.now() + maxMs;
    // ?epoch= (the audience app sends what it holds): a client on another epoch starts with the
    // snapshot; after that it holds the feed's epoch, and a new one restarts the numbering.
    let held = query;
    let position = query.since;
    let lastWrite = Date.now();
    await writer.write(encoder.encode('retry: 1000\n\n'));
    while (Date.now() < endAt) {
      const feed = await cache.current(root);
      if (feed.snapshot !== null) {
        const items = cache.after(feed, resumePoint({ ...held, since: position }, feed.epoch));
        held = { ...held, epoch: feed.epoch };
        if (items.length > 0) {
          await writer.write(encoder.encode(items.map((item) => formatSseEvent(item.seq, item.json)).join('')));
          position = feed.seq;
          lastWrite = Date.now();
        }
      }
      if (Date.now() - lastWrite >= HEARTBEAT_MS) {
        await writer.write(encoder.encode(SSE_HEARTBEAT));
        lastWrite = Date.now();
      }
      await sleep(tickMs);
    }
  }

  // The writes fail once the viewer has gone; that ends the loop.
  pump()
    .catch(() => {})
    .finally(() => writer.close().catch(() => {}));

  return new Response(readable, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      ...CORS,
    },
  });
}
