// The engraved notation for the console's score editor (docs/reference/score-editing-api.md#notation-in-the-editor):
// GET /console/part/<key>/notation/… on the control listener answers exactly as
// /part/<key>/notation/… does on the audience listener (routes/notation.js), behind the same part
// key. Why here: the editor's timeline and its part-page preview run on the control listener,
// whose CSP keeps every fetch on its own origin, and the part page's own notation code
// (web/audience/shared/notation-source.js) sends no token. The key is the one the console shows
// (GET /api/parts); a wrong one is refused and counted as on the audience listener.

import { partKeyGate } from '../routes/part.js';
import { createNotationRoute } from '../routes/notation.js';
import { sendError } from '../routes/send-error.js';

const PATH = /^\/console\/part\/([^/?]*)(\/[^?]*)?/;

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ partKey: import('../parts/part-key.js').PartKey, metrics: import('../logs/metrics.js').Metrics, notation: ReturnType<typeof import('../notation/notation-service.js').createNotationService> }} options
 */
export default async function consolePartNotation(app, { partKey, metrics, notation }) {
  const admitted = partKeyGate(partKey, metrics);
  const notationRoute = createNotationRoute({ notation, metrics });
  app.get('/console/part/*', async (request, reply) => {
    const match = PATH.exec(request.url);
    if (!admitted(match?.[1] ?? null, reply)) return reply;
    reply.header('referrer-policy', 'no-referrer').header('cross-origin-resource-policy', 'same-origin');
    const rest = match?.[2] ?? '';
    if (!rest.startsWith('/notation/')) return sendError(reply, 'NOT_FOUND', { message: 'only the notation is served here' });
    return notationRoute(request, reply, rest);
  });
}
