// --max-clients: beyond the cap, new viewers go to the edge's public URL when one is set
// (page and poll 307, socket close 1013 with the URL as reason: browsers do not follow a
// redirect on a WebSocket handshake), otherwise 503 + Retry-After on every transport, the
// WebSocket handshake included. One address may hold at most half of the cap (docs/explanation/threat-model.md#availability-attacks-tried-on-the-venue-server)
// so a single phone or laptop cannot fill the room by itself.

import { isExemptAddress } from './exempt-address.js';
import { sendError } from '../routes/send-error.js';

/**
 * @typedef {ReturnType<typeof createOverflow>} Overflow
 */

/**
 * @param {{ maxClients: number | null, edgeUrl: () => string | null, viewers: () => number, metrics: import('../logs/metrics.js').Metrics }} options
 */
export function createOverflow({ maxClients, edgeUrl, viewers, metrics }) {
  const full = () => maxClients !== null && viewers() >= maxClients;
  const share = maxClients === null ? Infinity : Math.max(1, Math.floor(maxClients / 2));
  /** address → streaming viewers (WebSocket, SSE) open now */
  const streams = new Map();
  return {
    full,
    /** Full for this address: the room is full, or it already holds its share of the cap. */
    fullFor: (address) => full() || (!isExemptAddress(address) && (streams.get(address) ?? 0) >= share),
    /**
     * Count a streaming viewer against its address until `closing` emits 'close'.
     * @param {string} address
     * @param {{ once: (event: 'close', listener: () => void) => unknown }} closing
     */
    track(address, closing) {
      if (maxClients === null) return;
      streams.set(address, (streams.get(address) ?? 0) + 1);
      closing.once('close', () => {
        const left = (streams.get(address) ?? 1) - 1;
        if (left <= 0) streams.delete(address);
        else streams.set(address, left);
      });
    },
    /** True when viewers beyond the cap are sent to the edge rather than turned away. */
    redirects: () => Boolean(edgeUrl()),
    count: (transport) => metrics.overflow.inc({ transport }),
    /** Close reason for a WebSocket (≤ 123 bytes). */
    reason: () => (edgeUrl() ? `${edgeUrl()}/`.slice(0, 123) : 'server full, try again later'),
    /**
     * Answer an HTTP request that cannot be served here.
     * @param {import('fastify').FastifyReply} reply
     * @param {string} transport
     * @param {string} [path] path and query to keep on the edge (a lean viewer stays lean there)
     */
    reject(reply, transport, path = '/') {
      metrics.overflow.inc({ transport });
      const publicUrl = edgeUrl();
      if (publicUrl) return reply.code(307).header('location', `${publicUrl}${path}`).send();
      return sendError(reply, 'FULL', { headers: { 'retry-after': '10' } });
    },
  };
}
