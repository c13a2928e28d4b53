// The state stream and clock sync for the musicians' part pages (docs/how-to/part-pages.md#part-pages)
// : the audience's own /ws, /sse, /poll and /time routes, mounted again under
// /part/<key>/ behind the key. Same hub, same stream, same frames and limits as every phone — but
// --max-clients never turns a musician away (or sends one to the edge, where there is no part
// page): the band must be able to follow the show however full the hall is.

import { createOverflow } from '../guards/overflow.js';
import { partKeyGate } from './part.js';
import wsRoutes from './ws.js';
import sseRoutes from './sse.js';
import pollRoutes from './poll.js';
import timeRoutes from './time.js';

/**
 * Register with `{ prefix: '/part/:key' }` on the audience listener.
 * @param {import('fastify').FastifyInstance} app
 * @param {{ partKey: { matches: (candidate: unknown) => boolean, onRotate?: (listener: () => void) => void }, routeOptions: any }} options routeOptions: what the audience's stream routes get
 */
export default async function partStreamRoutes(app, { partKey, routeOptions }) {
  const admitted = partKeyGate(partKey, routeOptions.metrics);
  /** The connections of the part streams open now: a new key closes them (the old key stops at once). */
  const open = new Set();
  partKey.onRotate?.(() => {
    for (const socket of open) socket.destroy();
    open.clear();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!admitted(/** @type {any} */ (request.params).key, reply)) return reply;
    const socket = request.raw.socket;
    if (!open.has(socket)) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
  });
  // No cap: part pages are counted as viewers (tutti_clients) but never refused for being one too many.
  const uncapped = createOverflow({ maxClients: null, edgeUrl: () => null, viewers: () => 0, metrics: routeOptions.metrics });
  const options = { ...routeOptions, overflow: uncapped };
  for (const routes of [wsRoutes, sseRoutes, pollRoutes, timeRoutes]) await app.register(routes, options);
}
