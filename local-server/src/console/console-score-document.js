// The score editor's routes (SPEC §11, docs/reference/score-editing-api.md): GET and PUT
// /api/score/document (the loaded score file as written, its revision, a checked atomic save)
// and POST /api/score/media (an image or sound stored in the score's media folder). Behind the
// control listener's token like every /api/score route.

import { BadInput } from '../logs/metrics.js';
import { sendError } from '../routes/send-error.js';
import { controlErrorHandler } from '../routes/control.js';
import { createScoreDocument } from '../score/score-document.js';
import { MEDIA_UPLOAD_MAX_BYTES, MediaUploadError, storeMedia } from '../score/media-upload.js';

/** The largest PUT body: a score file of 4 MB is far past any real piece (the largest sample is 72 KB). */
export const DOCUMENT_BODY_MAX_BYTES = 4 * 1024 * 1024;

const putBody = {
  type: 'object',
  required: ['revision', 'score'],
  additionalProperties: false,
  properties: {
    revision: { anyOf: [{ type: 'string', pattern: '^[0-9a-f]{64}$' }, { type: 'null' }] },
    score: { type: 'object' },
    apply: { type: 'boolean' },
  },
};

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, metrics: import('../logs/metrics.js').Metrics, log: any }} options
 */
export default async function consoleScoreDocument(app, { show, metrics, log }) {
  const document = createScoreDocument({ show, log });

  app.get('/api/score/document', async () => document.read());

  app.put('/api/score/document', { bodyLimit: DOCUMENT_BODY_MAX_BYTES, schema: { body: putBody } }, async (request, reply) => {
    /** @type {any} */
    const result = await document.save(/** @type {any} */ (request.body));
    if (result.ok) return result;
    if (result.code === 'INVALID_SCORE') {
      metrics.badInput.inc({ source: BadInput.SCORE });
      const { problems } = result;
      return sendError(reply, 'INVALID_SCORE', { message: `The score has ${problems.length} problem(s); nothing was written.`, problems });
    }
    if (result.code === 'STALE_REVISION') {
      const { currentRevision, message } = result;
      return sendError(reply, 'STALE_REVISION', { currentRevision, ...(message ? { message: `${message}; nothing was written` } : {}) });
    }
    if (result.code === 'PLAYING') return sendError(reply, 'PLAYING', result.message ? { message: result.message } : {});
    return sendError(reply, 'SYMLINK_REFUSED', { message: result.message });
  });

  // Raw bytes, not JSON: a parser of its own in this scope only (the rest of the listener reads JSON).
  await app.register(async (media) => {
    media.removeAllContentTypeParsers();
    media.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MEDIA_UPLOAD_MAX_BYTES }, (_request, body, done) => done(null, body));
    const fallback = controlErrorHandler(metrics);
    media.setErrorHandler((error, request, reply) => {
      if (/** @type {any} */ (error).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return fallback(error, request, reply);
      metrics.badInput.inc({ source: BadInput.HTTP_BODY });
      return sendError(reply, 'MEDIA_TOO_BIG', {
        message: `the file is larger than the ${MEDIA_UPLOAD_MAX_BYTES}-byte limit per media file`,
      });
    });
    media.post('/api/score/media', async (request, reply) => {
      const { name } = /** @type {any} */ (request.query);
      const body = request.body;
      const { dir } = show.source();
      const score = show.engine.score();
      try {
        const asset = await storeMedia({
          dir,
          scoreId: score.id,
          assets: score.assets ?? [],
          name,
          bytes: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
        });
        log.info(`stored ${asset.src} (${asset.bytes} bytes) for the score editor`);
        return { ok: true, asset };
      } catch (error) {
        if (!(error instanceof MediaUploadError)) throw error;
        if (error.code !== 'SYMLINK_REFUSED') metrics.badInput.inc({ source: BadInput.HTTP_BODY });
        return sendError(reply, error.code, { message: error.message });
      }
    });
  });
}
