// --max-clients: beyond the cap, new viewers go to the edge's public URL when one is set
// (page and poll 307, socket close 1013 with the URL as reason: browsers do not follow a
// redirect on a WebSocket handshake), otherwise 503 + Retry-After on every transport, the
// WebSocket handshake included.

/**
 * @typedef {ReturnType<typeof createOverflow>} Overflow
 */

/**
 * @param {{ maxClients: number | null, edgeUrl: () => string | null, viewers: () => number, metrics: import('./metrics.js').Metrics }} options
 */
export function createOverflow({ maxClients, edgeUrl, viewers, metrics }) {
  return {
    full: () => maxClients !== null && viewers() >= maxClients,
    /** True when viewers beyond the cap are sent to the edge rather than turned away. */
    redirects: () => Boolean(edgeUrl()),
    count: (transport) => metrics.overflow.inc({ transport }),
    /** Close reason for a WebSocket (≤ 123 bytes). */
    reason: () => (edgeUrl() ? `${edgeUrl()}/`.slice(0, 123) : 'server full, try again later'),
    /**
     * Answer an HTTP request that cannot be served here.
     * @param {import('fastify').FastifyReply} reply
     * @param {string} transport
     * @param {string} [path] path to keep on the edge
     */
    reject(reply, transport, path = '/') {
      metrics.overflow.inc({ transport });
      const publicUrl = edgeUrl();
      if (publicUrl) return reply.code(307).header('location', `${publicUrl}${path}`).send();
      return reply.code(503).header('retry-after', '10').send({ error: 'FULL', message: 'This venue server is full; try again shortly.' });
    },
  };
}
