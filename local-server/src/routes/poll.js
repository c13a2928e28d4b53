// GET /poll?since=SEQ[&wait=MS]: envelopes as a JSON array (README.md, "Audience endpoints"). The
// array is joined from the stored serialized envelopes: nothing is re-serialized per request.

import { parseSeq } from '#core/protocol/sse.js';
import { BadInput } from '../metrics.js';
import { streamFromQuery, BAD_STREAM } from './stream-query.js';

export const MAX_WAIT_MS = 30_000;

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: any, metrics: import('../metrics.js').Metrics, overflow: import('../overflow.js').Overflow }} options
 */
export default async function pollRoutes(app, { show, metrics, overflow }) {
  app.get('/poll', async (request, reply) => {
    const query = /** @type {Record<string, string | undefined>} */ (request.query);
    const since = query.since === undefined ? null : parseSeq(query.since);
    const wait = query.wait === undefined ? 0 : parseSeq(query.wait);
    if ((query.since !== undefined && since === null) || wait === null) {
      metrics.badInput.inc({ source: BadInput.QUERY });
      return reply.code(400).send({ error: 'BAD_QUERY', message: 'since and wait must be non-negative integers' });
    }
    const stream = streamFromQuery(query);
    if (stream === null) {
      metrics.badInput.inc({ source: BadInput.QUERY });
      return reply.code(400).send(BAD_STREAM);
    }
    // A poll without `since` is a viewer joining; one with `since` was admitted before.
    if (since === null && overflow.full()) return overflow.reject(reply, 'poll', '/poll');
    const sameEpoch = !query.epoch || query.epoch === show.streamNamed(stream).epoch();
    const controller = new AbortController();
    request.raw.once('close', () => controller.abort());
    const jsons = await show.hub.poll(sameEpoch ? since : null, Math.min(wait, MAX_WAIT_MS), request.ip, controller.signal, stream);
    const body = `[${jsons.join(',')}]`;
    metrics.messages.inc({ transport: 'poll' }, jsons.length);
    metrics.bytes.inc({ transport: 'poll' }, Buffer.byteLength(body));
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });
}
