// The console's performance records (README.md, "The performance record"): the list of past
// records and each one's report, on the control listener behind the bearer token.

import path from 'node:path';
import { listRecords, RecordError } from '../record/record-reader.js';
import { RECORD_ID } from '../record/record-writer.js';
import { reportHtml } from '../report/report-html.js';
import { sendError } from '../send-error.js';

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ recordDir: string | null }} options where this server writes its records (null: it records nothing)
 */
export default async function recordRoutes(app, { recordDir }) {
  app.get('/api/records', async () => ({
    dir: recordDir,
    records: recordDir ? listRecords(recordDir).map(({ dir: _dir, ...r }) => r) : [],
  }));

  app.get('/api/records/:id/report', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    if (!recordDir || !RECORD_ID.test(id))
      return sendError(reply, 'NO_SUCH_RECORD', { message: `no performance record "${String(id).slice(0, 40)}"` });
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
