// GET /poll?since=SEQ[&wait=MS]: envelopes as a JSON array (docs/reference/audience-protocol.md#endpoints). The
// array is joined from the stored serialized envelopes: nothing is re-serialized per request.

import { parseStreamQuery, resumePoint } from '#core/stream/query.js';
import { refuseQuery } from './refuse-query.js';

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, metrics: import('../logs/metrics.js').Metrics, overflow: import('../guards/overflow.js').Overflow }} options
 */
export default async function pollRoutes(app, { show, metrics, overflow }) {
  app.get('/poll', async (request, reply) => {
    const query = /** @type {Record<string, string | undefined>} */ (request.query);
    const parsed = parseStreamQuery(query);
    if (!parsed.ok) return refuseQuery(reply, metrics, parsed.code);
    const { since, wait, stream } = parsed;
    // A poll without `since` is a viewer joining; one with `since` was admitted before.
    if (since === null && overflow.full()) return overflow.reject(reply, 'poll', request.url); // the query (stream=lean, wait) goes along
    const controller = new AbortController();
    request.raw.once('close', () => controller.abort());
    const jsons = await show.hub.poll(resumePoint(parsed, show.streamNamed(stream).epoch()), wait, request.ip, controller.signal, stream);
    const body = `[${jsons.join(',')}]`;
    metrics.messages.inc({ transport: 'poll' }, jsons.length);
    metrics.bytes.inc({ transport: 'poll' }, Buffer.byteLength(body));
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });
}
