// GET / and the built audience app (dist/audience), plus the score's media under /media/.
//
// The app is small, so every file and its .br/.gz siblings are read into memory once, at
// registration: serving a phone never touches the disk. Only the files listed in the build's
// manifest.json exist here; any other path (including every traversal trick, encoded or not)
// is a 404 because nothing is looked up on disk by request path. Media paths are served only when
// the score lists them, and only when their real path (links followed) is inside the score's
// folder (media-file.js).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_READ_FLAGS, resolveMediaFile } from '../score/media-file.js';
import { AUDIENCE_PAGE_CSP_HEADER } from '#core/protocol/page-csp.js';
import { MEDIA_CSP, MEDIA_MAX_AGE, decodeMediaPath, etagMatches, mediaType, parseRange } from '#core/protocol/media.js';
import { sendError } from './send-error.js';
import { isNotationMedia } from '#core/score/audience-score.js';

/** @typedef {import('../edge/media-sync.js').MediaSource} MediaSource */

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Raised when the app was never built; carries a code and says what to run. */
export class StaticAppError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Which encoding to send, from an Accept-Encoding header (q-values honoured; br preferred).
 * @param {string | undefined} header
 * @param {{ br: boolean, gzip: boolean }} available
 * @returns {'br' | 'gzip' | null}
 */
export function pickEncoding(header, available) {
  if (!header) return null;
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name) => q.get(name) ?? q.get('*') ?? 0;
  const candidates = /** @type {Array<'br' | 'gzip'>} */ (['br', 'gzip']).filter((e) => available[e] && weightOf(e) > 0);
  candidates.sort((a, b) => weightOf(b) - weightOf(a)); // stable: br wins ties
  return candidates[0] ?? null;
}

/**
 * Read a built app (its manifest.json and every file it lists, with their .br/.gz siblings) into
 * memory: the audience app here, the part page in routes/part.js.
 * @param {string} dir
 * @returns {Promise<Map<string, any>>} url path (`/index.html`, `/assets/…`, `/`) → file
 */
export async function loadBuiltApp(dir) {
  let manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    throw new StaticAppError(
      'AUDIENCE_NOT_BUILT',
      `The audience app is not built in ${dir} (${err.code ?? err.message}): run \`node web/audience/build.js\`.`,
    );
  }
  /** @type {Map<string, any>} url path → file */
  const files = new Map();
  for (const [path, info] of Object.entries(manifest.files ?? {})) {
    const raw = await readFile(join(dir, path));
    const variants = {
      identity: raw,
      br: await readFile(join(dir, `${path}.br`)).catch(() => null),
      gzip: await readFile(join(dir, `${path}.gz`)).catch(() => null),
    };
    const hash = createHash('sha256').update(raw).digest('base64url').slice(0, 16);
    const file = {
      type: info.type,
      immutable: Boolean(info.immutable),
      variants,
      etag: { identity: `"${hash}"`, br: `"${hash}-br"`, gzip: `"${hash}-gz"` },
    };
    files.set(`/${path}`, file);
    if (path === 'index.html') files.set('/', file);
  }
  return files;
}

/**
 * Send one file of a built app: the best encoding the client accepts, its ETag (304 when it
 * matches), immutable caching for hashed assets, and the page's CSP on HTML.
 * @param {import('fastify').FastifyRequest} request
 * @param {import('fastify').FastifyReply} reply
 * @param {any} file an entry of loadBuiltApp's map
 */
export function sendBuiltFile(request, reply, file) {
  const encoding = pickEncoding(request.headers['accept-encoding'], { br: Boolean(file.variants.br), gzip: Boolean(file.variants.gzip) });
  const body = file.variants[encoding ?? 'identity'];
  const etag = file.etag[encoding ?? 'identity'];
  reply
    .header('content-type', file.type)
    .header('cache-control', file.immutable ? IMMUTABLE : 'no-cache')
    .header('etag', etag)
    .header('vary', 'Accept-Encoding')
    .header('x-content-type-options', 'nosniff');
  if (file.type.startsWith('text/html')) reply.header('content-security-policy', AUDIENCE_PAGE_CSP_HEADER);
  if (etagMatches(request.headers['if-none-match'], Object.values(file.etag))) return reply.code(304).send();
  if (encoding) reply.header('content-encoding', encoding === 'gzip' ? 'gzip' : 'br');
  return reply.header('content-length', body.length).send(body);
}

/**
 * Fastify plugin serving the built audience app and the score's media.
 * @param {import('fastify').FastifyInstance} app
 * @param {{ dir: string, media?: () => MediaSource | null, onOutside?: (src: string) => void,
 *   notationMedia?: (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply, rel: string) => Promise<unknown> }} options
 *   dir: the build output; media: the current score's folder and assets (only listed files are served, and only
 *   when their real path is inside the folder); onOutside: told when a listed file links outside it;
 *   notationMedia: answers the engraved pages under notation/ (routes/notation-media.js)
 */
export default async function staticRoutes(app, { dir, media = () => null, notationMedia, onOutside = () => {} }) {
  const files = await loadBuiltApp(dir);

  const serveFile = (file) => (request, reply) => sendBuiltFile(request, reply, file);

  // One route per file: anything else is Fastify's 404, whatever the path spells.
  for (const [path, file] of files) {
    if (path === '/manifest.json') continue;
    app.get(path, serveFile(file));
  }

  app.get('/media/*', async (request, reply) => {
    const raw = request.url.slice('/media/'.length).split('?')[0];
    const rel = decodeMediaPath(raw);
    if (rel !== null && notationMedia && isNotationMedia(rel)) return notationMedia(request, reply, rel);
    const source = media();
    const listed = rel !== null && source !== null && source.assets.some((asset) => asset.src === rel);
    if (!listed) return sendError(reply, 'NOT_FOUND');
    // Checked on every request, not only at load: a link can be planted in the folder mid-show.
    const info = await resolveMediaFile(source.dir, rel);
    if (!info.ok) {
      if (info.reason === 'outside') onOutside(rel);
      return sendError(reply, 'NOT_FOUND', { message: info.reason === 'missing' ? 'media file missing on the server' : undefined });
    }
    const file = info.file;
    const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    reply
      .header('content-type', mediaType(rel))
      .header('cache-control', MEDIA_MAX_AGE)
      .header('etag', etag)
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP);
    if (etagMatches(request.headers['if-none-match'], [etag])) return reply.code(304).send();
    const range = parseRange(request.headers.range, info.size);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${info.size}`).send();
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(file, { ...range, flags: MEDIA_READ_FLAGS }));
    }
    return reply.header('content-length', info.size).send(createReadStream(file, { flags: MEDIA_READ_FLAGS }));
  });
}
