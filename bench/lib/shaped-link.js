// A simulated venue link for benchmarks (docs/reference/benchmarks.md#notation-join): a user-space
// TCP proxy on 127.0.0.1 in front of a server, where every connection shares one link of
// `mbit` per direction (first come, first sent, in pieces of at most 16 KB, as a Wi-Fi access
// point queues them) and every byte arrives `rttMs / 2` after it left. A new connection waits one
// round trip before its first bytes go (the TCP handshake over the link). The plumbing (one
// upstream socket per client, torn down together) is test/support/tcp-proxy.js.

import { startTcpProxy } from '../../test/support/tcp-proxy.js';

const PIECE = 16 * 1024;

/**
 * One direction of the link: a piece leaves when the link is free and arrives the one-way delay
 * later. Returns `send`, which queues a socket's chunk (its `pipe`) for delivery.
 * @param {number} bytesPerMs
 * @param {number} delayMs
 */
function createDirection(bytesPerMs, delayMs) {
  let freeAt = 0;
  let bytes = 0;
  return {
    /**
     * @param {ReturnType<typeof createPipe>} pipe the socket's own queue (keeps its byte order)
     * @param {Buffer} chunk
     * @param {number} notBefore the earliest time (performance.now()) it may leave
     */
    send(pipe, chunk, notBefore) {
      for (let at = 0; at < chunk.length; at += PIECE) {
        const piece = chunk.subarray(at, at + PIECE);
        freeAt = Math.max(performance.now(), notBefore, freeAt) + piece.length / bytesPerMs;
        bytes += piece.length;
        pipe.push(freeAt + delayMs, piece);
      }
    },
    bytes: () => bytes,
  };
}

/**
 * One socket's deliveries, in order: a single timer for the head of its queue.
 * @param {(piece: Buffer) => void} deliver
 */
function createPipe(deliver) {
  /** @type {Array<{ due: number, piece: Buffer }>} */
  const queue = [];
  let timer = null;
  const drain = () => {
    timer = null;
    while (queue.length > 0 && queue[0].due <= performance.now() + 0.5) deliver(/** @type {any} */ (queue.shift()).piece);
    if (queue.length > 0) timer = setTimeout(drain, Math.max(0, queue[0].due - performance.now()));
  };
  return {
    /** @param {number} due @param {Buffer} piece */
    push(due, piece) {
      queue.push({ due, piece });
      if (!timer) timer = setTimeout(drain, Math.max(0, queue[0].due - performance.now()));
    },
    stop() {
      clearTimeout(timer);
      queue.length = 0;
    },
  };
}

/**
 * Start the link in front of `targetPort`.
 * @param {{ targetPort: number, mbit?: number, rttMs?: number }} options
 * @returns {Promise<{ url: string, port: number, stats: () => { down: number, up: number, connections: number }, close: () => Promise<void> }>}
 */
export async function startShapedLink({ targetPort, mbit = 20, rttMs = 30 }) {
  const bytesPerMs = (mbit * 1e6) / 8 / 1000;
  const down = createDirection(bytesPerMs, rttMs / 2);
  const up = createDirection(bytesPerMs, rttMs / 2);
  let connections = 0;
  const proxy = await startTcpProxy({
    targetPort,
    onPair(client, upstream) {
      connections += 1;
      const open = performance.now() + rttMs;
      const toServer = createPipe((piece) => upstream.destroyed || upstream.write(piece));
      const toClient = createPipe((piece) => client.destroyed || client.write(piece));
      client.on('data', (chunk) => up.send(toServer, chunk, open));
      upstream.on('data', (chunk) => down.send(toClient, chunk, open));
      const stop = () => (toServer.stop(), toClient.stop());
      client.on('close', stop);
      upstream.on('close', stop);
    },
  });
  return {
    url: proxy.url,
    port: proxy.port,
    stats: () => ({ down: down.bytes(), up: up.bytes(), connections }),
    close: () => proxy.close(),
  };
}
