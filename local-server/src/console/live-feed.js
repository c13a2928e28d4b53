// The console's live feed (docs/README.md, GET /api/events): Server-Sent Events over the
// authenticated control listener. Each event is encoded once for every open console; a stuck
// console tab is dropped, never waited for.

const MAX_EVENT_STREAMS = 16;
const STREAM_BUFFER_LIMIT = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

/**
 * @param {{ serverNow: () => number }} options every event carries the server time `s`
 */
export function createLiveFeed({ serverNow }) {
  /** @type {Set<import('node:http').ServerResponse>} */
  const streams = new Set();
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(':\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    /**
     * One event to every open console.
     * @param {string} event
     * @param {Record<string, unknown>} data
     */
    broadcast(event, data) {
      if (streams.size === 0) return;
      const frame = `event: ${event}\ndata: ${JSON.stringify({ ...data, s: serverNow() })}\n\n`;
      for (const res of streams) {
        if (res.writableLength > STREAM_BUFFER_LIMIT) res.destroy();
        else res.write(frame);
      }
    },
    /** Whether another console may follow the feed. */
    full: () => streams.size >= MAX_EVENT_STREAMS,
    /** The TOO_MANY_STREAMS sentence when full(). */
    fullMessage: () => `at most ${MAX_EVENT_STREAMS} consoles may follow the live feed at once`,
    /** How many consoles follow the feed. */
    size: () => streams.size,
    /**
     * Start a console's feed on a hijacked response: headers, then `hello` with everything so far.
     * @param {import('node:http').ServerResponse} res
     * @param {Record<string, unknown>} hello
     */
    add(res, hello) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ ...hello, s: serverNow() })}\n\n`);
      streams.add(res);
      const drop = () => streams.delete(res);
      res.once('close', drop);
      res.once('error', drop);
    },
    close() {
      clearInterval(heartbeat);
      for (const res of streams) res.end();
    },
  };
}
