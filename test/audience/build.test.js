// The audience build: hashed assets, precompressed siblings, a manifest, idempotent output.
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildAudienceApp } from '../../web/audience/build.js';

let outDir;
beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'tutti-audience-build-'));
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

test('writes index.html, hashed assets, sw.js with its precache list, .br/.gz siblings and a manifest', async () => {
  const result = await buildAudienceApp({ quiet: true, outDir });
  const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8'));
  const paths = Object.keys(manifest.files);
  const cssPath = paths.find((p) => /^assets\/app-[A-Za-z0-9]{12}\.css$/.test(p));
  const jsPath = paths.find((p) => /^assets\/app-[A-Za-z0-9]{12}\.js$/.test(p));
  const videoPath = paths.find((p) => /^assets\/keep-awake-[A-Za-z0-9]{12}\.webm$/.test(p));
  expect(paths.sort()).toEqual([cssPath, jsPath, videoPath, 'index.html', 'sw.js'].sort());
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  // index.html references the hashed files with relative URLs (works under any origin/prefix).
  expect(html).toContain(`href="${cssPath}"`);
  expect(html).toContain(`src="${jsPath}"`);
  // The keep-awake video (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http): a WebM (EBML magic, V_VP8 track, and an A_OPUS track:
  // Firefox holds no wake lock for a video without audio), fetched only after Join, not looped
  // (restarted by keep-awake-video.js: WebKit's loop stalls).
  expect(html).toContain(`src="${videoPath}"`);
  expect(html).toMatch(/<video id="keep-awake"[^>]* muted playsinline preload="none"/);
  expect(html).not.toMatch(/<video id="keep-awake"[^>]* loop/);
  const video = await readFile(join(outDir, videoPath));
  expect(video.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
  expect(video.includes('V_VP8')).toBe(true);
  expect(video.includes('A_OPUS')).toBe(true);
  expect(video.includes('OpusHead')).toBe(true);
  expect(video.length).toBeLessThan(1536);
  expect(manifest.files[videoPath].type).toBe('video/webm');
  expect(html).not.toMatch(/(src|href)="\/[^/]/);
  const sw = await readFile(join(outDir, 'sw.js'), 'utf8');
  expect(sw).toContain(JSON.stringify(['./', cssPath, jsPath]));
  expect(sw).toContain(manifest.version);
  for (const path of paths) {
    const info = manifest.files[path];
    const raw = await readFile(join(outDir, path));
    expect(info.bytes).toBe(raw.length);
    expect(info.immutable).toBe(path.startsWith('assets/'));
    expect(brotliDecompressSync(await readFile(join(outDir, `${path}.br`))).equals(raw)).toBe(true);
    expect(gunzipSync(await readFile(join(outDir, `${path}.gz`))).equals(raw)).toBe(true);
  }
  expect(manifest.files['index.html'].type).toBe('text/html; charset=utf-8');
  expect(manifest.files[jsPath].type).toBe('text/javascript; charset=utf-8');
  // The whole first visit, compressed, is far under the 150 KB budget.
  expect(result.firstVisitBytes.br).toBeLessThan(150 * 1024);
  expect(result.firstVisitBytes.br).toBeLessThan(result.firstVisitBytes.raw);
});

test('is idempotent: a second build rewrites nothing and gives identical bytes', async () => {
  await buildAudienceApp({ quiet: true, outDir });
  const before = new Map();
  const list = async () =>
    [...(await readdir(outDir)), ...(await readdir(join(outDir, 'assets'))).map((n) => `assets/${n}`)].filter((n) => n !== 'assets');
  for (const name of await list()) before.set(name, (await stat(join(outDir, name))).mtimeMs);
  const again = await buildAudienceApp({ quiet: true, outDir });
  expect(new Set(await list())).toEqual(new Set(before.keys()));
  for (const [name, mtime] of before) expect((await stat(join(outDir, name))).mtimeMs).toBe(mtime);
  expect(again.files).toEqual(JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')).files);
});

test('the bundle is runtime-code only: no Node built-ins or leftover imports reach the browser', async () => {
  const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8'));
  const jsPath = Object.keys(manifest.files).find((p) => p.endsWith('.js') && p.startsWith('assets/'));
  const js = await readFile(join(outDir, jsPath), 'utf8');
  expect(js).not.toMatch(/\bimport\s*[{("'*]|\brequire\(|node:/);
});
