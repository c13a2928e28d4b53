// The rehearsal routes of the control API (docs/reference/control-api.md#endpoints and "Rehearsing"): start from a
// place with a count-in, loop a range, release the loop. Behind the control listener's token like
// every route; bodies are checked twice — their shape by JSON schema, the places by readPlace with
// a sentence saying what is wrong — and a refusal is a 400 counted as bad input (control.js's error
// handler), never a change.

import { createTransportLog } from '../logs/transport-log.js';
import { createRehearsal, readPlace } from '../show/rehearsal.js';
import { sendError } from './send-error.js';

const place = { type: 'object' };
const countIn = { type: 'integer' };
const startBody = {
  type: 'object',
  required: ['from'],
  additionalProperties: false,
  properties: { from: place, countInBars: countIn, audience: { type: 'boolean' } },
};
const loopBody = {
  type: 'object',
  required: ['from'],
  additionalProperties: false,
  properties: {
    from: place,
    to: place,
    passes: { type: ['integer', 'null'] },
    start: { type: 'boolean' },
    countInBars: countIn,
    audience: { type: 'boolean' },
  },
};

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, status: () => object, log: any }} options
 */
export default async function rehearsalRoutes(app, { show, status, log }) {
  const rehearsal = createRehearsal(show);
  const said = createTransportLog(log, show.engine, 'control API');
  const by = (request) => (request.headers['x-tutti-client'] === 'console' ? 'console' : 'control API');

  app.post('/api/start', { schema: { body: startBody } }, async (request) => {
    const body = /** @type {any} */ (request.body);
    const what = rehearsal.start({ ...body, from: readPlace(body.from, 'from') });
    said.transport(what, by(request));
    return status();
  });

  app.post('/api/loop', { schema: { body: loopBody } }, async (request) => {
    const body = /** @type {any} */ (request.body);
    const what = rehearsal.loop({
      ...body,
      from: readPlace(body.from, 'from'),
      to: body.to === undefined ? undefined : readPlace(body.to, 'to'),
    });
    said.transport(what, by(request));
    return status();
  });

  app.post('/api/loop/release', async (request, reply) => {
    if (!rehearsal.release()) return sendError(reply, 'NO_LOOP');
    said.transport('loop released: leaving at the end of this pass', by(request));
    return status();
  });
}
