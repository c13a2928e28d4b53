// The audience paths answer GET and HEAD only; any other method gets 405 with an Allow header,
// as at the edge (docs/reference/errors.md#audience-errors), instead of Fastify's "Route POST:/poll not found".

import { AUDIENCE_METHODS } from '#core/protocol/http-errors.js';
import { sendError } from './send-error.js';
import { BadInput } from '../logs/metrics.js';

const READ_ONLY_PATHS = ['/ws', '/sse', '/poll', '/time', '/healthz', '/media/*'];
const OTHER_METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ metrics: import('../logs/metrics.js').Metrics }} options
 */
export default async function audienceMethodRoutes(app, { metrics }) {
  for (const url of READ_ONLY_PATHS) {
    app.route({
      method: OTHER_METHODS,
      url,
      handler: async (_request, reply) => {
        metrics.badInput.inc({ source: BadInput.QUERY });
        return sendError(reply, 'METHOD_NOT_ALLOWED', { headers: { allow: AUDIENCE_METHODS } });
      },
    });
  }
}
