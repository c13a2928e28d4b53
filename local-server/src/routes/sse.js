// GET /sse: Server-Sent Events. Resumes from Last-Event-ID or ?since (README.md, "Audience
// endpoints"); the hub writes the same pre-formatted event bytes to every stream.

import { parseSeq } from '#core/protocol/sse.js';
import { BadInput } from '../metrics.js';
import { streamFromQuery, BAD_STREAM } from './stream-query.js';

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: any, metrics: import('../metrics.js').Metrics, overflow: import('../overflow.js').Overflow }} options
 */
export default async function sseRoutes(app, { show, metrics, overflow }) {
  app.get('/sse', (request, reply) => {
    const query = /** @type {Record<string, string | undefined>} */ (request.query);
    const rawSince = request.headers['last-event-id'] ?? query.since;
    const since = rawSince === undefined ? null : parseSeq(rawSince);
    if (rawSince !== undefined && since === null) {
      metrics.badInput.inc({ source: BadInput.QUERY });
      return reply.code(400).send({ error: 'BAD_SINCE', message: 'since / Last-Event-ID must be a non-negative integer' });
    }
    const stream = streamFromQuery(query);
    if (stream === null) {
      metrics.badInput.inc({ source: BadInput.QUERY });
      return reply.code(400).send(BAD_STREAM);
    }
    if (overflow.fullFor(request.ip)) return overflow.reject(reply, 'sse', '/sse');
    // A client resuming in another epoch (server restarted or new score) must start over.
    const resumeFrom = query.epoch && query.epoch !== show.streamNamed(stream).epoch() ? null : since;
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
