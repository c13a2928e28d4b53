// The musicians' part pages on the audience listener (docs/how-to/part-pages.md#part-pages): everything lives
// under /part/<key>/, where <key> is the short key only the console shows (part-key.js). A
// missing or wrong key gets 403 PART_KEY, counted as tutti_bad_input_total{source="part_key"}.
// Behind the key: the page (dist/part, built from web/audience/part/), the score's cue
// table (parts.json, once per score: the audience state does not carry it) and the pages' own
// reports for the console (report). The beats come from the audience's own /ws, /sse, /poll and
// /time routes, mounted under the key too (routes/part-stream.js): the same stream and clock sync as
// every phone. The edge worker has none of these routes.

import { partCueTable } from '#core/score/part-cues.js';
import { BadInput } from '../logs/metrics.js';
import { loadBuiltApp, sendBuiltFile } from './static.js';
import { parsePartReport } from '../parts/part-pages.js';
import { sendError } from './send-error.js';
import { createNotationRoute } from './notation.js';

/**
 * The key check every /part route starts with: true when `key` is the part key, else it answers
 * 403 PART_KEY, counts it (tutti_bad_input_total{source="part_key"}) and returns false.
 * @param {{ matches: (candidate: unknown) => boolean }} partKey
 * @param {import('../logs/metrics.js').Metrics} metrics
 * @returns {(key: unknown, reply: import('fastify').FastifyReply) => boolean}
 */
export function partKeyGate(partKey, metrics) {
  return (key, reply) => {
    if (partKey.matches(key)) return true;
    metrics.badInput.inc({ source: BadInput.PART_KEY });
    sendError(reply, 'PART_KEY', { headers: { 'cache-control': 'no-store' } });
    return false;
  };
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ dir: string, show: any, metrics: import('../logs/metrics.js').Metrics, partKey: import('../parts/part-key.js').PartKey, partPages: ReturnType<typeof import('../parts/part-pages.js').createPartPages>, log: { warn: (msg: string) => void }, notation: ReturnType<typeof import('../notation/notation-service.js').createNotationService> }} options
 */
export default async function partRoutes(app, { dir, show, metrics, partKey, partPages, log, notation }) {
  /** @type {Map<string, any>} */
  let files = new Map();
  try {
    files = await loadBuiltApp(dir);
  } catch (err) {
    log.warn(`the musicians' part page is not built (${err.message}); /part/… answers 503 until \`npm run build\``);
  }

  /** The cue table of the loaded score, serialized once per score. */
  let table = { score: null, json: '' };
  const tableJson = () => {
    const score = show.engine.score();
    if (table.score !== score) table = { score, json: JSON.stringify(partCueTable(score)) };
    return table.json;
  };

  /** Split /part/<key>/<rest>; null key when the URL has none. */
  const split = (url) => {
    const path = url.split('?')[0];
    const match = /^\/part(?:\/([^/]*))?(\/.*)?$/.exec(path);
    return { key: match?.[1] ?? null, rest: match?.[2] ?? null };
  };

  const admitted = partKeyGate(partKey, metrics);
  // The engraved notation (docs/reference/notation.md#notation-routes).
  const notationRoute = createNotationRoute({ notation, metrics });

  const get = async (request, reply) => {
    const { key, rest } = split(request.url);
    if (!admitted(key, reply)) return reply;
    reply.header('referrer-policy', 'no-referrer');
    // The page's relative URLs need the trailing slash.
    if (rest === null) return reply.code(308).header('location', `/part/${key}/`).send();
    if (rest.startsWith('/notation/')) return notationRoute(request, reply, rest);
    if (rest === '/parts.json') return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(tableJson());
    if (files.size === 0) return sendError(reply, 'PART_PAGE_NOT_BUILT');
    const file = rest === '/' ? files.get('/') : rest.startsWith('/assets/') ? files.get(rest) : undefined;
    if (!file) return sendError(reply, 'NOT_FOUND', { message: 'no such part-page file' });
    return sendBuiltFile(request, reply, file);
  };
  app.get('/part', get);
  app.get('/part/*', get);

  app.post('/part/*', async (request, reply) => {
    const { key, rest } = split(request.url);
    if (!admitted(key, reply)) return reply;
    if (rest !== '/report') return sendError(reply, 'NOT_FOUND', { message: 'no such part-page route' });
    const parsed = parsePartReport(request.body);
    if (parsed.ok === false) {
      metrics.badInput.inc({ source: BadInput.HTTP_BODY });
      return sendError(reply, 'BAD_REPORT', { message: parsed.reason });
    }
    partPages.report(parsed.report, request.ip);
    return reply.code(204).send();
  });
}
