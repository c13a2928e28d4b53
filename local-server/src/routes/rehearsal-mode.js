// Rehearsal mode on the control API (docs/how-to/rehearse.md#rehearsal-mode): `POST /api/rehearsal-mode
// {"on": bool}` puts the audience on the "the show starts soon" screen, or back on the show.
// The answer is the new status (its `rehearsal` says which); the log and the performance record
// say who did it.

import { createTransportLog } from '../logs/transport-log.js';

const rehearsalBody = {
  type: 'object',
  required: ['on'],
  additionalProperties: false,
  properties: { on: { type: 'boolean' } },
};

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, status: () => object, log: any }} options
 */
export default async function rehearsalModeRoutes(app, { show, status, log }) {
  const said = createTransportLog(log, show.engine, 'control API');
  app.post('/api/rehearsal-mode', { schema: { body: rehearsalBody } }, async (request) => {
    const { on } = /** @type {{ on: boolean }} */ (request.body);
    const by = request.headers['x-tutti-client'] === 'console' ? 'console' : 'control API';
    if (show.setRehearsal(on)) said.rehearsal(on, by);
    return status();
  });
}
