// Builds the audience web app into dist/audience/: index.html (not hashed, always revalidated),
// content-hashed JS/CSS under assets/ (cached forever), sw.js (not hashed, carries the precache
// list), .br/.gz siblings for every text file, and manifest.json describing all of it.
//
// Deterministic and idempotent: the same sources give byte-identical files, and unchanged files
// are not rewritten. Each file is written to a temporary name and renamed, index.html last, so a
// server (or a second build running at the same time) never reads a half-written app.
//
// Usage: node web/audience/build.js        (prints a one-line summary)

import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { AUDIENCE_PAGE_CSP } from '#core/protocol/page-csp.js';
import { buildKeepAwakeWebm } from './keep-awake-webm.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, 'src');
const ROOT = join(HERE, '..', '..');
export const AUDIENCE_OUT_DIR = join(ROOT, 'dist', 'audience');

/** Browsers the page must run on: what phones in a hall carry (iOS 15+, Chrome/Android 90+). */
const TARGET = ['es2020', 'chrome90', 'safari15', 'firefox90'];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webm': 'video/webm',
};
/** Unhashed files older than this and no longer referenced are removed (a concurrent build may still need fresher ones). */
const STALE_MS = 60_000;

/** Short content hash for file names and ETags. @param {Buffer} bytes */
export const hashOf = (bytes) => createHash('sha256').update(bytes).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');

/**
 * @typedef {object} BuiltFile
 * @property {string} hash
 * @property {number} bytes
 * @property {string} type content type
 * @property {boolean} immutable true for content-hashed files
 * @property {number} [br] brotli size
 * @property {number} [gz] gzip size
 */

/**
 * Build the audience app into `outDir`.
 * @param {{ quiet?: boolean, outDir?: string }} [options]
 * @returns {Promise<{ outDir: string, files: Record<string, BuiltFile>, firstVisitBytes: { raw: number, br: number, gz: number }, ms: number }>}
 */
export async function buildAudienceApp({ quiet = false, outDir = AUDIENCE_OUT_DIR } = {}) {
  const started = performance.now();
  // Screen on without a secure context (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http): the video is fetched only after the Join tap.
  const { js, css, video, html, jsPath, cssPath, videoPath } = await buildPage(SRC, 'app');

  const precache = ['./', cssPath, jsPath];
  const version = hashOf(Buffer.concat([html, js, css]));
  const sw = Buffer.from(
    (
      await transform(await readFile(join(SRC, 'sw.js'), 'utf8'), {
        minify: true,
        target: TARGET,
        define: { __VERSION__: JSON.stringify(version), __PRECACHE__: JSON.stringify(precache) },
      })
    ).code,
  );

  /** @type {Array<[string, Buffer]>} written in this order: index.html last */
  const outputs = [
    [jsPath, js],
    [cssPath, css],
    [videoPath, video],
    ['sw.js', sw],
    ['index.html', html],
  ];
  const files = await writeBuiltApp(outDir, outputs, version);

  const firstVisit = ['index.html', cssPath, jsPath];
  const firstVisitBytes = {
    raw: firstVisit.reduce((n, p) => n + files[p].bytes, 0),
    br: firstVisit.reduce((n, p) => n + files[p].br, 0),
    gz: firstVisit.reduce((n, p) => n + files[p].gz, 0),
  };
  const ms = Math.round(performance.now() - started);
  if (!quiet) {
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `audience app → ${outDir}: ${jsPath} ${kb(js.length)} (br ${kb(files[jsPath].br)}), ${cssPath} ${kb(css.length)}, ` +
        `first visit ${kb(firstVisitBytes.raw)} raw / ${kb(firstVisitBytes.br)} br / ${kb(firstVisitBytes.gz)} gzip, sw.js ${kb(sw.length)}, ${ms} ms`,
    );
  }
  return { outDir, files, firstVisitBytes, ms };
}

/**
 * Bundle one page (the audience app, the part page): `main.js` and `styles.css` of `srcDir` as
 * content-hashed assets named `<name>-<hash>`, the keep-awake video, and its `index.html` with the
 * page CSP and those paths filled in.
 * @param {string} srcDir
 * @param {string} name
 */
export async function buildPage(srcDir, name) {
  const js = await bundle(join(srcDir, 'main.js'), { format: 'esm' });
  const css = await bundle(join(srcDir, 'styles.css'));
  const jsPath = `assets/${name}-${hashOf(js)}.js`;
  const cssPath = `assets/${name}-${hashOf(css)}.css`;
  const video = buildKeepAwakeWebm();
  const videoPath = `assets/keep-awake-${hashOf(video)}.webm`;
  const template = await readFile(join(srcDir, 'index.html'), 'utf8');
  const html = Buffer.from(
    minifyHtml(
      template.replace('%CSP%', AUDIENCE_PAGE_CSP).replace('%CSS%', cssPath).replace('%JS%', jsPath).replace('%KEEP_AWAKE%', videoPath),
    ),
  );
  return { js, css, video, html, jsPath, cssPath, videoPath };
}

/**
 * Write a built app into `outDir`: every output with .br/.gz siblings, manifest.json (path →
 * BuiltFile) just before index.html, which comes last, and .assetsignore; then remove stale files.
 * Shared by this app and the musicians' part page (build-part.js).
 * @param {string} outDir
 * @param {Array<[string, Buffer]>} outputs in writing order, index.html last
 * @param {string} version
 * @returns {Promise<Record<string, BuiltFile>>}
 */
export async function writeBuiltApp(outDir, outputs, version) {
  /** @type {Record<string, BuiltFile>} */
  const files = {};
  for (const [path, bytes] of outputs) {
    const type = TYPES[extname(path)];
    files[path] = { hash: hashOf(bytes), bytes: bytes.length, type, immutable: path.startsWith('assets/') };
  }

  await mkdir(join(outDir, 'assets'), { recursive: true });
  const written = new Set(['manifest.json', '.assetsignore']);
  for (const [path, bytes] of outputs) {
    const br = brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = gzipSync(bytes, { level: 9 });
    files[path].br = br.length;
    files[path].gz = gz.length;
    await writeIfChanged(join(outDir, `${path}.br`), br);
    await writeIfChanged(join(outDir, `${path}.gz`), gz);
    if (path === 'index.html') {
      // The manifest describes the index that follows; both land before anyone can see them together.
      await writeIfChanged(join(outDir, 'manifest.json'), Buffer.from(`${JSON.stringify({ version, files }, null, 2)}\n`));
    }
    await writeIfChanged(join(outDir, path), bytes);
    written.add(path).add(`${path}.br`).add(`${path}.gz`);
  }
  // The edge worker serves this folder as static assets; it compresses by itself, so it needs
  // neither the precompressed siblings nor the manifest.
  await writeIfChanged(join(outDir, '.assetsignore'), Buffer.from('*.br\n*.gz\nmanifest.json\n'));
  await removeStale(outDir, written);
  return files;
}

/**
 * Bundle one entry (JS or CSS) for the phones' browsers (TARGET), minified.
 * @param {string} entry
 * @param {{ format?: 'esm' }} [options] no format for CSS
 */
export async function bundle(entry, { format } = {}) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format,
    target: TARGET,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  return Buffer.from(result.outputFiles[0].contents);
}

/**
 * Drop indentation and blank lines; the templates have no <pre> or inline scripts to protect.
 * @param {string} html
 */
export function minifyHtml(html) {
  return html
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

async function writeIfChanged(path, bytes) {
  try {
    const old = await readFile(path);
    if (old.equals(bytes)) return;
  } catch {
    // missing: write it
  }
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

async function removeStale(outDir, keep) {
  const now = Date.now();
  for (const dir of ['', 'assets']) {
    let names;
    try {
      names = await readdir(join(outDir, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      const rel = dir ? `${dir}/${name}` : name;
      if (keep.has(rel) || rel === 'assets') continue;
      const full = join(outDir, rel);
      try {
        if (now - (await stat(full)).mtimeMs > STALE_MS) await unlink(full);
      } catch {
        // removed by a concurrent build
      }
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAudienceApp()
    .then(() => import('./build-part.js'))
    .then(({ buildPartApp }) => buildPartApp())
    .catch((err) => {
      console.error(`audience build failed: ${err.message}`);
      process.exitCode = 1;
    });
}
