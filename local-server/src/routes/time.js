// GET /time (clock sync for SSE/poll viewers) and GET /healthz.

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, now: () => number }} options
 */
export default async function timeRoutes(app, { show, now }) {
  app.get('/time', (request, reply) => {
    reply.header('cache-control', 'no-store').type('application/json').send(`{"s":${now()}}`);
  });
  app.get('/healthz', (request, reply) => {
    reply.header('cache-control', 'no-store').send({ ok: true, epoch: show.stream.epoch(), seq: show.stream.seq() });
  });
}
