// The console's performance records (README.md, "The performance record"): the list of past
// records, each one's report, and its entries page by page for the console's replay, on the
// control listener behind the bearer token.

import path from 'node:path';
import { listRecords, RecordError } from '../record/record-reader.js';
import { RECORD_ID } from '../record/record-writer.js';
import { reportHtml } from '../report/report-html.js';
import { sendError } from '../send-error.js';
import { createRecordCache } from '../record/record-cache.js';

/** Entries per page of `GET /api/records/<id>/entries` unless `limit` says otherwise (and at most). */
export const ENTRIES_PAGE = 2000;
export const ENTRIES_PAGE_MAX = 10_000;

/**
 * `?from=N&limit=M` of the entries route; anything else is a 400 (counted by the control
 * listener's error handler, routes/control.js).
 * @param {Record<string, unknown>} query
 */
function pageOf(query) {
  const bad = (message) => Object.assign(new Error(message), { statusCode: 400, code: 'BAD_QUERY' });
  for (const key of Object.keys(query)) if (key !== 'from' && key !== 'limit') throw bad(`unknown parameter "${key.slice(0, 20)}"`);
  const number = (key, fallback, min, max) => {
    const raw = query[key];
    if (raw === undefined) return fallback;
    const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= min && n <= max)) throw bad(`"${key}" must be a whole number from ${min} to ${max}`);
    return n;
  };
  return { from: number('from', 0, 0, 999_999_999), limit: number('limit', ENTRIES_PAGE, 1, ENTRIES_PAGE_MAX) };
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ recordDir: string | null }} options where this server writes its records (null: it records nothing)
 */
export default async function recordRoutes(app, { recordDir }) {
  const cache = createRecordCache();
  const noSuchRecord = (reply, id) => sendError(reply, 'NO_SUCH_RECORD', { message: `no performance record "${String(id).slice(0, 40)}"` });

  // The console's replay (README.md, "Replaying a record"): every entry in the order written —
  // envelopes, actions, votes, samples — `limit` at a time from entry `from`; `next` is the
  // `from` of the next page, null after the last.
  app.get('/api/records/:id/entries', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    const { from, limit } = pageOf(/** @type {Record<string, unknown>} */ (request.query));
    if (!recordDir || !RECORD_ID.test(id)) return noSuchRecord(reply, id);
    try {
      const { entries, torn } = cache.read(path.join(recordDir, id));
      const page = entries.slice(from, from + limit);
      const next = from + page.length < entries.length ? from + page.length : null;
      return { id, total: entries.length, torn, from, next, entries: page };
    } catch (err) {
      if (err instanceof RecordError) return sendError(reply, 'NO_SUCH_RECORD', { message: err.message.replace(recordDir, 'records') });
      throw err;
    }
  });
  app.get('/api/records', async () => ({
    dir: recordDir,
    records: recordDir ? listRecords(recordDir).map(({ dir: _dir, ...r }) => r) : [],
  }));

  app.get('/api/records/:id/report', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    if (!recordDir || !RECORD_ID.test(id)) return noSuchRecord(reply, id);
    try {
      // Rendered on the event loop: ~tens of ms for a 2-hour show (npm run bench:record).
      const { html } = reportHtml(path.join(recordDir, id));
      return reply
        .type('text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="tutti-report-${id}.html"`)
        .send(html);
    } catch (err) {
      if (err instanceof RecordError) return sendError(reply, 'NO_SUCH_RECORD', { message: err.message.replace(recordDir, 'records') });
      throw err;
    }
  });
}
