// The console's count-in (docs/README.md, POST/DELETE /api/console/count-in): N beats (one bar by
// default) of clicks on every device, then play from where play would start; refused while
// playing or while counting in already.

import { sendError } from '../routes/send-error.js';

const countInBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { beats: { type: 'integer', minimum: 1, maximum: 16 } },
};

/**
 * Add the count-in routes to the console's API.
 * @param {import('fastify').FastifyInstance} app
 * @param {object} options
 * @param {import('./count-in.js').CountIn} options.countIn
 * @param {() => ReturnType<typeof import('./transport-status.js').transportStatus>} options.transportStatus where the show is
 */
export function countInRoutes(app, { countIn, transportStatus }) {
  app.post('/api/console/count-in', { schema: { body: countInBody } }, async (request, reply) => {
    const now = transportStatus();
    if (now.transport === 'playing') return sendError(reply, 'ALREADY_PLAYING');
    if (now.countIn) return sendError(reply, 'COUNTING_IN');
    countIn.start(/** @type {any} */ (request.body)?.beats ?? now.position.beats);
    return transportStatus();
  });

  app.delete('/api/console/count-in', async () => {
    countIn.cancel('cancelled from the console');
    return transportStatus();
  });
}
