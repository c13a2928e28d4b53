// The console's page on the control listener: GET / (index.html) and GET /console/<file> from
// web/console. The page holds no data and needs no token to load (the auth hook lets these
// paths through); it reads the token from its own URL and sends it with every API call.
//
// Files are read into memory once, at registration: a request path is looked up in that map,
// never joined to a directory, so no path trick reaches the disk. A strict CSP (no inline
// script or style, nothing from elsewhere) is sent with every file, in the browser and in the
// desktop app alike.

import { readdir, readFile } from 'node:fs/promises';
import { join, relative, extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendError } from '../routes/send-error.js';
import { collectModules } from './console-modules.js';

export const RENDERER_DIR = fileURLToPath(new URL('../../../web/console/', import.meta.url));
const CORE_DIR = fileURLToPath(new URL('../../../core/', import.meta.url));
const AUDIENCE_DIR = fileURLToPath(new URL('../../../web/audience/src/', import.meta.url));
/**
 * The runtime-free core modules the console page imports as they are (`../../core/…` from
 * web/console resolves to /core/… in the browser): one SSE parser and one backoff rule for the
 * audience app, the servers and the console, and the printed-bar helpers (docs/reference/score-format.md#printed-bar-numbers)
 * and the merge patch a replay applies envelopes with (docs/how-to/record-and-replay.md#replaying-a-record)
 * with the phone's beat queue (core/client/beat-schedule.js); for the score
 * editor (docs/tutorials/first-piece-without-json.md) the validator `tutti validate` runs, the
 * timeline, the cue index and the part pages' cue table. Only these and the modules they import are served
 * (local-server/src/console/console-modules.js).
 */
export const CONSOLE_CORE_FILES = Object.freeze([
  'protocol/sse-parser.js',
  'util/backoff.js',
  'score/printed-bars.js',
  'protocol/merge-patch.js',
  'client/beat-schedule.js',
  'score/validate.js',
  'score/timeline.js',
  'score/cue-index.js',
  'score/part-cues.js',
]);
/** The audience page's own view code, run by the editor's phone preview (not a copy of it). */
const AUDIENCE_ENTRIES = ['view.js'];
/** The preview frame's script (web/console/editor/), which drives the audience view above. */
const PHONE_SCRIPT = '/console/editor/phone-main.js';
const WEB_AUDIENCE_DIR = fileURLToPath(new URL('../../../web/audience/', import.meta.url));
/**
 * The part page's own view and notation code (web/audience/part/, web/audience/shared/), run by
 * the editor's part-page preview and its timeline's notation, and the audience page's engraved
 * score (web/audience/src/score-view.js), run by the phone preview; served under /console/web-audience/
 * with the audience modules they import (../src/…) beside them, as in the source tree.
 */
const PART_ENTRIES = ['part/part-view.js', 'shared/notation-view.js', 'shared/notation-source.js', 'src/score-view.js'];
const PART_SCRIPT = '/console/editor/part-main.js';

/**
 * The console's Content-Security-Policy: only its own files (framed only by itself: the phone preview); data: only for images (the QR code);
 * blob: for the images and sounds of a replayed record, fetched with the token (web/console/replay-media.js).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'media-src blob:',
  "connect-src 'self'",
  "frame-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'", // only the editor's own phone preview frame (web/console/editor/phone-preview.js)
].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

async function listFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else if (entry.isFile() && TYPES[extname(entry.name)]) out.push(full);
  }
  return out;
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ dir?: string }} [options]
 */
export default async function consoleUi(app, options = {}) {
  const dir = options.dir ?? RENDERER_DIR;
  /** @type {Map<string, { body: Buffer, type: string }>} */
  const files = new Map();
  try {
    for (const file of await listFiles(dir)) {
      files.set(relative(dir, file).split(sep).join('/'), { body: await readFile(file), type: TYPES[extname(file)] });
    }
  } catch (err) {
    app.log.warn(`console UI not available: ${err.message}`);
  }

  /** @type {Map<string, { body: Buffer, type: string }>} */
  const coreFiles = new Map();
  /** @type {Map<string, Buffer>} */
  const core = new Map();
  try {
    await collectModules({ root: CORE_DIR, entries: [...CONSOLE_CORE_FILES], coreDir: CORE_DIR }, core);
  } catch (err) {
    app.log.warn(`console UI: core modules not available: ${err.message}`);
  }
  // The editor's phone preview only: without these files the rest of the console still runs.
  try {
    const audience = await collectModules({ root: AUDIENCE_DIR, entries: AUDIENCE_ENTRIES, coreDir: CORE_DIR }, core);
    for (const [name, body] of audience) files.set(`audience/${name}`, { body, type: TYPES['.js'] });
    // The pages' styles as in the source tree, so their relative @imports (../shared/…) resolve.
    for (const folder of ['src', 'shared', 'part'])
      for (const name of (await readdir(join(WEB_AUDIENCE_DIR, folder)).catch(() => [])).filter((n) => n.endsWith('.css')))
        files.set(`web-audience/${folder}/${name}`, { body: await readFile(join(WEB_AUDIENCE_DIR, folder, name)), type: TYPES['.css'] });
    const page = await readFile(join(AUDIENCE_DIR, 'index.html'), 'utf8');
    files.set('editor/phone.html', {
      body: Buffer.from(previewPage(page, '/console/web-audience/src/styles.css', PHONE_SCRIPT)),
      type: TYPES['.html'],
    });
  } catch (err) {
    app.log.warn(`console UI: the editor's phone preview is not available: ${err.message}`);
  }
  // The editor's part-page preview and notation: likewise optional.
  try {
    const part = await collectModules({ root: WEB_AUDIENCE_DIR, entries: PART_ENTRIES, coreDir: CORE_DIR }, core);
    for (const [name, body] of part) files.set(`web-audience/${name}`, { body, type: TYPES['.js'] });
    const page = await readFile(join(WEB_AUDIENCE_DIR, 'part', 'index.html'), 'utf8');
    files.set('editor/part.html', {
      body: Buffer.from(previewPage(page, '/console/web-audience/part/styles.css', PART_SCRIPT)),
      type: TYPES['.html'],
    });
  } catch (err) {
    app.log.warn(`console UI: the editor's part-page preview is not available: ${err.message}`);
  }
  for (const [name, body] of core) coreFiles.set(name, { body, type: TYPES['.js'] });

  const send = (reply, name, from = files) => {
    const file = from.get(name);
    if (!file) return sendError(reply.type('application/json; charset=utf-8'), 'NOT_FOUND', { message: 'no such console file' });
    return reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer') // the page URL may still hold the token for a moment
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cache-control', 'no-cache')
      .type(file.type)
      .send(file.body);
  };

  app.get('/', async (request, reply) => send(reply, 'index.html'));
  app.get('/console/*', async (request, reply) => send(reply, /** @type {any} */ (request.params)['*']));
  app.get('/core/*', async (request, reply) => send(reply, /** @type {any} */ (request.params)['*'], coreFiles));
  app.get('/favicon.ico', async (request, reply) => {
    const icon = files.get('favicon.svg');
    if (!icon) return reply.code(204).send();
    return reply.header('cache-control', 'public, max-age=86400').type(icon.type).send(icon.body);
  });
}

/**
 * An editor preview frame: the audience page's or the part page's own markup
 * (web/audience/src/index.html, web/audience/part/index.html), with the console's policy, the
 * page's own styles and the preview script in place of the page's app.
 * @param {string} template
 * @param {string} css
 * @param {string} js
 */
function previewPage(template, css, js) {
  return template
    .replace('%CSP%', CONSOLE_CSP.replace(/; frame-ancestors [^;]*/, ''))
    .replace('%CSS%', css)
    .replace('%JS%', js)
    .replace(/<video id="keep-awake"[^>]*><\/video>/, '');
}
