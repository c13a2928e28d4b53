// GET /sse: Server-Sent Events. Resumes from Last-Event-ID or ?since (docs/reference/audience-protocol.md#endpoints)
// the hub writes the same pre-formatted event bytes to every stream.

import { parseStreamQuery, resumePoint } from '#core/stream/query.js';
import { refuseQuery } from './refuse-query.js';

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, metrics: import('../logs/metrics.js').Metrics, overflow: import('../guards/overflow.js').Overflow }} options
 */
export default async function sseRoutes(app, { show, metrics, overflow }) {
  app.get('/sse', (request, reply) => {
    const query = /** @type {Record<string, string | undefined>} */ (request.query);
    const lastEventId = request.headers['last-event-id'];
    // `wait` means nothing to an event stream; it is not judged here.
    const parsed = parseStreamQuery({ ...query, wait: undefined, lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined });
    if (!parsed.ok) return refuseQuery(reply, metrics, parsed.code);
    const { stream } = parsed;
    if (overflow.fullFor(request.ip)) return overflow.reject(reply, 'sse', request.url); // the query (stream=lean) goes along
    // A client resuming in another epoch (server restarted or new score) must start over.
    const resumeFrom = resumePoint(parsed, show.streamNamed(stream).epoch());
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write('retry: 1000\n\n');
    overflow.track(request.ip, reply.raw);
    show.hub.addEventStream(reply.raw, resumeFrom, stream);
  });
}
