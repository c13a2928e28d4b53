// A user-space TCP proxy on 127.0.0.1 that delays every chunk, in each direction, by a random
// 0–maxDelayMs (there is no tc netem on these machines). Chunks of one direction keep their order
// (a chunk never overtakes the previous one), as on a real network path: TCP cannot reorder.
//
// It can also act as a middlebox for the fallback tests: refuse requests to some paths (it reads
// the request heads of each connection; the audience page only sends GETs) and cut every open
// connection at once. It counts the bytes it forwards, so a test can report wire bytes.

import { startTcpProxy } from '../../support/tcp-proxy.js';

/** @typedef {import('node:net').Socket} Socket */

/**
 * @param {object} options
 * @param {number} options.targetPort
 * @param {string} [options.targetHost]
 * @param {number} [options.maxDelayMs] per-chunk delay is uniform in [0, maxDelayMs]
 * @param {() => number} [options.random]
 */
export async function startJitterProxy({ targetPort, targetHost = '127.0.0.1', maxDelayMs = 0, random = Math.random }) {
  /** @type {Set<string>} */
  const blocked = new Set();
  const stats = { up: 0, down: 0, connections: 0, refused: 0 };
  /** Each direction's maximum delay: up (client → target), down (target → client). */
  const delays = { up: maxDelayMs, down: maxDelayMs };

  /**
   * Forward `from` → `to` chunk by chunk, each delayed, in order. A chunk waits behind every
   * earlier one still queued: deciding "write now" from the clock alone reorders chunks when an
   * earlier chunk's timer fires late (a busy machine), which corrupts the byte stream (a WebSocket
   * handshake answered by a frame before its 101, or a torn frame).
   */
  function pipeDelayed(from, to, count, inspect) {
    /** @type {Array<{ at: number, chunk: Buffer }>} */
    const queue = [];
    let timer = null;
    const drain = () => {
      timer = null;
      const now = performance.now();
      while (queue.length && queue[0].at - now < 0.5) {
        const { chunk } = /** @type {{ chunk: Buffer }} */ (queue.shift());
        if (!to.destroyed) to.write(chunk);
      }
      if (queue.length) timer = setTimeout(drain, queue[0].at - now);
    };
    from.on('data', (chunk) => {
      if (inspect && !inspect(chunk)) return;
      stats[count] += chunk.length;
      const now = performance.now();
      const last = queue.length ? queue[queue.length - 1].at : 0;
      const delay = delays[count];
      queue.push({ at: Math.max(now + (delay > 0 ? random() * delay : 0), last), chunk });
      if (!timer) drain();
    });
  }

  const proxy = await startTcpProxy({ targetPort, targetHost, onPair });

  /**
   * @param {Socket} client
   * @param {Socket} upstream
   */
  function onPair(client, upstream) {
    stats.connections += 1;
    let head = '';
    let upgraded = false;
    // Reads request heads (GET only: no bodies) so blocked paths can be refused, like a middlebox.
    const inspect = (chunk) => {
      if (upgraded) return true;
      head += chunk.toString('latin1');
      if (head.length > 65_536) head = ''; // not HTTP heads: stop buffering
      for (let end = head.indexOf('\r\n\r\n'); end >= 0; end = head.indexOf('\r\n\r\n')) {
        const request = head.slice(0, end);
        head = head.slice(end + 4);
        const path = (/^[A-Z]+ (\S+)/.exec(request)?.[1] ?? '').split('?')[0];
        if (blocked.has(path)) {
          stats.refused += 1;
          client.destroy();
          upstream.destroy();
          return false;
        }
        if (/^upgrade:/im.test(request)) upgraded = true;
      }
      return true;
    };
    pipeDelayed(client, upstream, 'up', inspect);
    pipeDelayed(upstream, client, 'down');
  }

  return {
    url: proxy.url,
    port: proxy.port,
    stats,
    /**
     * @param {number} ms the new maximum delay
     * @param {'both' | 'up' | 'down'} [direction] up: client → target, down: target → client
     */
    setDelay(ms, direction = 'both') {
      if (direction !== 'down') delays.up = ms;
      if (direction !== 'up') delays.down = ms;
    },
    /** Refuse requests to these paths from now on (e.g. '/ws', '/sse'); [] to allow all again. */
    block(paths) {
      blocked.clear();
      for (const p of paths) blocked.add(p);
    },
    destroyAll: proxy.destroyAll,
    resetStats() {
      Object.assign(stats, { up: 0, down: 0, connections: 0, refused: 0 });
    },
    close: proxy.close,
  };
}
