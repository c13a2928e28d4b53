// The console's edge card (docs/explanation/edge-design.md): the mirror's status, switching it on with a URL
// and token (checked by edge/edge-url.js, the rule `tutti serve --edge` uses), resuming after
// "replaced", switching it off. The token is kept out of the log and handed to the host to keep.

import { edgePublishUrl } from '../edge/edge-url.js';
import { sendError } from '../routes/send-error.js';

const edgeBody = {
  type: 'object',
  required: ['url', 'token'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    token: { type: 'string', minLength: 1, maxLength: 4096 },
  },
};

/**
 * @param {object} options
 * @param {any} options.edge the edge mirror (edge-mirror.js)
 * @param {() => any} options.status the server's status (its `maxClients`)
 * @param {(change: Record<string, unknown>) => void} options.tell what the host should save
 * @param {import('../logs/log.js').Log} options.log the server's log: a typed-in token is hidden in all of it (terminal, file, console, record)
 */
export function createEdgePanel({ edge, status, tell, log }) {
  const current = () => ({ ...edge.status(), publicUrl: edge.publicUrl(), maxClients: status().maxClients ?? null });
  return {
    /** The card's content: the mirror's status, its public URL and the local audience cap. */
    status: current,
    /** @param {import('fastify').FastifyInstance} app */
    routes(app) {
      app.post('/api/edge', { schema: { body: edgeBody } }, async (request, reply) => {
        const { url, token } = /** @type {any} */ (request.body);
        const checked = edgePublishUrl(url);
        if (!checked.url) return sendError(reply, 'BAD_EDGE_URL', { message: checked.reason.replace('--edge', 'the edge URL') });
        log.hide(token);
        await edge.enable(url, token);
        // The desktop app keeps the token encrypted (app/main/edge-token-store.js); other hosts drop it.
        tell({ edgeUrl: edge.publicUrl(), edgeToken: token });
        return current();
      });

      // After "replaced" (another venue server took the edge over) the uplink waits for this.
      app.post('/api/edge/resume', async (_request, reply) => {
        if (!edge.status().enabled) return sendError(reply, 'EDGE_OFF');
        edge.resume();
        return current();
      });

      app.delete('/api/edge', async () => {
        edge.disable();
        tell({ edgeUrl: null, edgeToken: null });
        return current();
      });
    },
  };
}
