// Idle and crowded sockets on the audience listener (docs/explanation/threat-model.md#availability-attacks-tried-on-the-venue-server)
// .
// A venue phone can open TCP connections and never send a byte: each one holds a file
// descriptor, and under a low open-files limit a few hundred of them made every other viewer's
// request fail. So: a connection that has not sent a complete request within a few seconds is
// closed, and one address may hold at most `maxPerAddress` sockets at once (WebSocket, SSE and
// HTTP keep-alive alike: each is a socket). 127.0.0.1 and ::1 are exempt (exempt-address.js).
// Behind a reverse proxy on the same machine every socket comes from loopback, so with
// --trust-proxy the same cap is applied per X-Forwarded-For address to open requests instead.

import { isExemptAddress } from './exempt-address.js';

/** How often one address's refusals are reported on the console (one line, not one per socket). */
const BANNER_EVERY_MS = 60_000;

/**
 * @param {object} options
 * @param {import('node:http').Server} options.server the audience listener's HTTP server
 * @param {number} options.maxPerAddress sockets (or, behind a proxy, open requests) per address
 * @param {number} options.firstRequestTimeoutMs a socket must send a whole request within this
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ warn: Function }} options.log
 */
export function guardConnections({ server, maxPerAddress, firstRequestTimeoutMs, metrics, log }) {
  /** address → sockets (or proxied requests) open now */
  const open = new Map();
  /** address → when its refusals were last reported */
  const reported = new Map();

  const hold = (address) => open.set(address, (open.get(address) ?? 0) + 1);
  const release = (address) => {
    const left = (open.get(address) ?? 1) - 1;
    if (left <= 0) open.delete(address);
    else open.set(address, left);
  };
  const overCap = (address) => !isExemptAddress(address) && (open.get(address) ?? 0) >= maxPerAddress;

  function refuse(address) {
    metrics.connectionsRejected.inc({ reason: 'per_address' });
    const t = Date.now();
    if (t - (reported.get(address) ?? 0) < BANNER_EVERY_MS) return;
    if (reported.size > 1000) reported.clear();
    reported.set(address, t);
    log.warn(
      `refusing connections from ${address}: it already holds ${maxPerAddress} (--max-per-address); tutti_connections_rejected_total{reason="per_address"} counts them`,
    );
  }

  server.on('connection', (/** @type {import('node:net').Socket} */ socket) => {
    const address = socket.remoteAddress ?? '';
    if (overCap(address)) {
      refuse(address);
      socket.destroy();
      return;
    }
    hold(address);
    socket.once('close', () => release(address));
    // Cleared as soon as a request (or a WebSocket upgrade) has arrived; after that Node's
    // keep-alive timeout and the hub's liveness pings take over.
    socket.setTimeout(firstRequestTimeoutMs);
    socket.once('timeout', () => {
      if (/** @type {any} */ (socket).tuttiRequested) return;
      metrics.connectionsRejected.inc({ reason: 'idle' });
      socket.destroy();
    });
  });
  const requested = (/** @type {import('node:http').IncomingMessage} */ req) => {
    const socket = /** @type {any} */ (req.socket);
    if (socket.tuttiRequested) return;
    socket.tuttiRequested = true;
    socket.setTimeout(0);
  };
  server.on('request', requested);
  server.on('upgrade', requested);

  return {
    /**
     * Behind a trusted proxy: admit one request from the client address Fastify derived from
     * X-Forwarded-For, held until its response (or, for a WebSocket, its socket) closes.
     * @param {import('fastify').FastifyRequest} request
     * @param {import('fastify').FastifyReply} reply
     * @returns {boolean} false when the address already holds its share (the caller answers 429)
     */
    admitProxied(request, reply) {
      const address = request.ip;
      if (address === request.socket.remoteAddress) return true; // not forwarded: counted as a socket
      if (overCap(address)) {
        refuse(address);
        return false;
      }
      hold(address);
      const done = () => release(address);
      if (request.headers.upgrade) request.raw.socket.once('close', done);
      else reply.raw.once('close', done);
      return true;
    },
  };
}
