// The audience paths answer GET and HEAD only; any other method gets 405 with an Allow header,
// as at the edge (README.md, "Errors"), instead of Fastify's "Route POST:/poll not found".

import { AUDIENCE_METHODS, audienceError } from '#core/protocol/http-errors.js';
import { BadInput } from '../metrics.js';

const READ_ONLY_PATHS = ['/ws', '/sse', '/poll', '/time', '/healthz', '/media/*'];
const OTHER_METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ metrics: import('../metrics.js').Metrics }} options
 */
export default async function audienceMethodRoutes(app, { metrics }) {
  const { status, body } = audienceError('METHOD_NOT_ALLOWED');
  for (const url of READ_ONLY_PATHS) {
    app.route({
      method: OTHER_METHODS,
      url,
      handler: async (_request, reply) => {
        metrics.badInput.inc({ source: BadInput.QUERY });
        return reply.code(status).header('allow', AUDIENCE_METHODS).send(body);
      },
    });
  }
}
