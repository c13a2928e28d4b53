// The console's import (docs/how-to/import.md#bringing-a-piece-in): POST /api/score/import with the path
// of a MusicXML / MIDI file. Without `save` it only reads the file and answers what it found
// (the summary lines, the warnings with their measures, the score summary) and where it would be
// written; with `save` it writes the score (never over an existing file unless `force`), which
// the console then checks and loads like any score. Behind the control listener's token. The
// file is read on a worker thread (import-worker.js), never on the show's event loop, and one
// import at a time (import-queue.js): a second waits, and its answer's `queued` says behind how many.

import { ImportError } from '#core/import/import-error.js';
import { validateScore } from '#core/score/validate.js';
import { createImportQueue } from '../import/import-queue.js';
import { importInWorker } from '../import/import-worker.js';
import { scoreSummary } from './score-summary.js';
import { sendError } from '../routes/send-error.js';

const importBody = {
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', minLength: 1, maxLength: 4096 },
    out: { type: 'string', minLength: 1, maxLength: 4096 },
    save: { type: 'boolean' },
    force: { type: 'boolean' },
    // MIDI only: the pickup's length in beats of the first time signature, 0 for none.
    pickup: { type: 'number', minimum: 0, maximum: 32 },
  },
};

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ log: any }} options
 */
export default async function consoleImport(app, { log }) {
  const queue = createImportQueue();
  app.post('/api/score/import', { schema: { body: importBody } }, async (request, reply) => {
    const { path, out, save = false, force = false, pickup } = /** @type {any} */ (request.body);
    try {
      // On a worker thread: a large file must not stall a show that is playing; one at a time,
      // so two never share the show's cores.
      if (queue.size() > 0) log.info(`import of ${path} waits for ${queue.size()} other import(s)`);
      const { value: done, ahead } = await queue.run(() => importInWorker({ file: path, out, force, dryRun: !save, pickupBeats: pickup }));
      if (save) log.info(`imported ${path} → ${done.target}`);
      const checked = validateScore(done.score);
      return {
        ok: true,
        kind: done.result.kind,
        file: path,
        pickup: pickup ?? null,
        out: done.target,
        exists: done.exists,
        saved: save,
        queued: ahead,
        lines: done.lines,
        warnings: done.result.warnings,
        score: checked.ok ? scoreSummary(checked.score, done.target) : null,
      };
    } catch (error) {
      if (error instanceof ImportError) {
        return sendError(reply, /exists; pass --force/.test(error.message) ? 'EXISTS' : 'IMPORT_FAILED', { message: error.message });
      }
      throw error;
    }
  });
}
