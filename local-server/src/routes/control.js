// Control API (docs/reference/control-api.md#endpoints table), on the loopback control listener only. Every route
// needs the bearer token; bodies are checked before anything is touched; errors are JSON with a
// code.

import { EngineError } from '#core/engine/engine.js';
import { loadScoreFile } from '../score/score-file.js';
import { BadInput } from '../logs/metrics.js';
import { createTransportLog } from '../logs/transport-log.js';
import { sendEngineRefusal, sendError, sendThrownError, thrownStatus } from './send-error.js';

const transportBody = {
  type: 'object',
  required: ['action'],
  additionalProperties: false,
  properties: {
    action: { enum: ['play', 'pause', 'stop', 'seek'] },
    bar: { type: 'integer', minimum: 1 },
    beat: { type: 'integer', minimum: 1 },
  },
};
const tempoBody = {
  type: 'object',
  additionalProperties: false,
  properties: { bpm: { type: ['number', 'null'] }, percent: { type: 'number' } },
};
const scoreBody = {
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
};

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, metrics: import('../logs/metrics.js').Metrics, status: () => object, log: any }} options
 */
export default async function controlRoutes(app, { show, metrics, status, log }) {
  app.get('/api/status', async () => status());
  const said = createTransportLog(log, show.engine, 'control API');
  /** The console says it is the console (web/console/api.js), for the log and the record. */
  const by = (request) => (request.headers['x-tutti-client'] === 'console' ? 'console' : 'control API');

  app.post('/api/transport', { schema: { body: transportBody } }, async (request, reply) => {
    const { action, bar, beat } = /** @type {any} */ (request.body);
    const { engine } = show;
    if (action === 'seek') {
      if (bar === undefined) return sendError(reply, 'BAD_BODY');
      engine.seek(bar, beat ?? 1);
    } else engine[action]();
    said.transport(action === 'seek' ? `seek to bar ${bar} beat ${beat ?? 1}` : action, by(request));
    return status();
  });

  app.post('/api/tempo', { schema: { body: tempoBody } }, async (request, reply) => {
    const body = /** @type {any} */ (request.body);
    if ('bpm' in body === 'percent' in body) {
      metrics.badInput.inc({ source: BadInput.HTTP_BODY });
      return sendError(reply, 'BAD_BODY', {
        message: 'give either "bpm" (10–400, null: the written tempo) or "percent" (of the written tempo)',
      });
    }
    if ('percent' in body) {
      // A rehearsal tempo (docs/how-to/rehearse.md#rehearsing): the written tempo map scaled.
      show.engine.setTempoPercent(body.percent);
      said.tempo(null, by(request), `${body.percent} % of the written tempo`);
    } else {
      show.engine.setTempo(body.bpm);
      said.tempo(body.bpm, by(request));
    }
    return status();
  });

  app.post('/api/score', { schema: { body: scoreBody } }, async (request, reply) => {
    const { path } = /** @type {any} */ (request.body);
    const loaded = await loadScoreFile(path);
    if (!loaded.ok) {
      metrics.badInput.inc({ source: BadInput.SCORE });
      return sendError(reply, 'INVALID_SCORE', {
        message: `The score ${path} has ${loaded.problems.length} problem(s).`,
        problems: loaded.problems,
      });
    }
    show.load({ score: loaded.score, dir: loaded.dir, path });
    log.info(`loaded score ${loaded.score.id} from ${path}`);
    return status();
  });

  app.get('/metrics', async (request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.exposition();
  });
}

/**
 * Read every control request body as JSON, whatever its Content-Type says: `curl -d '{…}'`
 * sends form-urlencoded and `fetch` with a string body sends text/plain, and both mean JSON here
 * (docs/reference/control-api.md#endpoints). Safe because every API call also needs the bearer token, which a
 * cross-site "simple" request cannot carry. An empty body is no body; bad JSON is a 400.
 * @param {import('fastify').FastifyInstance} app
 */
export function acceptJsonBodiesOfAnyType(app) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = /** @type {string} */ (body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(
        Object.assign(new Error(`body is not valid JSON: ${/** @type {Error} */ (err).message}`), { statusCode: 400, code: 'BAD_JSON' }),
        undefined,
      );
    }
  });
}

/**
 * Errors as JSON with a code, never a crash: bad JSON/schema → 400, engine refusals → 400; each counted as bad input.
 * @param {import('../logs/metrics.js').Metrics} metrics
 */
export function controlErrorHandler(metrics) {
  return (error, request, reply) => {
    if (error instanceof EngineError) {
      // A refused command (a bar out of range, an unknown section) is bad input like a bad body.
      metrics.badInput.inc({ source: BadInput.HTTP_BODY });
      return sendEngineRefusal(reply, error);
    }
    const status = thrownStatus(error);
    if (status === 400 || status === 415 || status === 413) metrics.badInput.inc({ source: BadInput.HTTP_BODY });
    if (status === 500) request.log.error(error);
    const message = error.validation ? `invalid body: ${error.message.replace(/^body\/?/, '')}` : error.message;
    return sendThrownError(reply, error, message);
  };
}
