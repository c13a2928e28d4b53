// GET /sse (README.md, "Audience endpoints"): an event stream fed from the isolate's feed cache.
// Resumes from Last-Event-ID or ?since. Streams end after SSE_MAX_MS so every loop is bounded;
// EventSource reconnects by itself with Last-Event-ID and loses nothing.

import { SSE_HEARTBEAT, formatSseEvent, parseSeq } from '../../core/protocol/sse.js';
import { CORS, sleep } from './http.js';

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
  const url = new URL(request.url);
  const resumeFrom = parseSeq(request.headers.get('last-event-id') ?? undefined) ?? parseSeq(url.searchParams.get('since') ?? undefined);
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();

  async function pump() {
    const endAt = Date.now() + maxMs;
    // ?epoch= (the audience app sends what it holds): a client on another epoch starts with the snapshot.
    let epoch = /** @type {string | null} */ (url.searchParams.get('epoch') || null);
    let position = resumeFrom;
    let lastWrite = Date.now();
    await writer.write(encoder.encode('retry: 1000\n\n'));
    while (Date.now() < endAt) {
      const feed = await cache.current(root);
      if (feed.snapshot !== null) {
        // A new epoch restarts the numbering: the client needs the snapshot, whatever it had.
        const items = epoch !== null && epoch !== feed.epoch ? cache.after(feed, null) : cache.after(feed, position);
        epoch = feed.epoch;
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
