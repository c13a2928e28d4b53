// The images and sounds of the loaded score for the editor's phone preview (web/console/editor/phone-main.js,
// preview-sounds.js):
// GET /console/score/media/<src> on the control listener, so the preview's <img> loads them from
// its own origin, as a phone loads them from /media/<src> on the audience listener. An <img>
// cannot send the token, so this path is a console file (control-guard.js): only what the
// audience may see anyway is served — a file the loaded score lists, or one in its upload folder
// (media/<score id>/, where POST /api/score/media puts a file the editor has not saved yet) —
// with the real path checked inside the score's folder on every request (media-file.js), and
// same-origin only (no other site can embed it).

import { readFile } from 'node:fs/promises';
import { resolveMediaFile } from '../score/media-file.js';
import { MEDIA_CSP, decodeMediaPath, mediaType } from '#core/protocol/media.js';
import { sendError } from '../routes/send-error.js';

/** Images (the preview draws them) and sounds (its Play buttons, docs/tutorials/first-piece-without-json.md#see-what-a-phone-shows). */
const PREVIEWED = /^(image|audio)\//;

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ media: () => { dir: string, id: string, assets: Array<{ src: string }> } | null }} options
 */
export default async function consoleScoreMedia(app, { media }) {
  app.get('/console/score/media/*', async (request, reply) => {
    const rel = decodeMediaPath(request.url.slice('/console/score/media/'.length).split('?')[0]);
    const source = media();
    const allowed =
      rel !== null &&
      source !== null &&
      PREVIEWED.test(mediaType(rel)) &&
      (source.assets.some((asset) => asset.src === rel) || rel.startsWith(`media/${source.id}/`));
    if (!allowed) return sendError(reply, 'NOT_FOUND');
    const info = await resolveMediaFile(source.dir, rel);
    if (!info.ok) return sendError(reply, 'NOT_FOUND');
    return reply
      .header('content-type', mediaType(rel))
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('content-security-policy', MEDIA_CSP)
      .send(await readFile(/** @type {string} */ (info.file)));
  });
}
