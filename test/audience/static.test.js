// The static plugin on its own Fastify instance, over real sockets.
import Fastify from 'fastify';
import { request as httpRequest } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildAudienceApp } from '../../web/audience/build.js';
import staticRoutes, { pickEncoding } from '../../local-server/src/routes/static.js';
import { parseRange, decodeMediaPath } from '#core/protocol/media.js';

let app;
let base;
let work;
let manifest;
let jsPath;
const wav = Buffer.alloc(1000, 7);

/** A raw GET: the path goes on the wire exactly as written (no URL normalization). */
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tutti-static-'));
  const dir = join(work, 'dist');
  await buildAudienceApp({ quiet: true, outDir: dir });
  manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  jsPath = Object.keys(manifest.files).find((p) => p.endsWith('.js') && p.startsWith('assets/'));
  await mkdir(join(work, 'score', 'sounds'), { recursive: true });
  await writeFile(join(work, 'score', 'sounds', 'bell one.wav'), wav);
  await writeFile(join(work, 'secret.txt'), 'do not serve');
  const media = () => ({ dir: join(work, 'score'), assets: [{ src: 'sounds/bell one.wav' }] });
  app = Fastify();
  await app.register(staticRoutes, { dir, media });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await rm(work, { recursive: true, force: true });
});

describe('static app', () => {
  test('GET / serves index.html uncompressed, revalidated by ETag', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toContain('<title>Tutti</title>');
    const again = await get('/', { 'if-none-match': res.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await get('/?probe=5', { 'if-none-match': `W/${res.headers.etag}` })).status).toBe(304);
    expect((await get('/', { 'if-none-match': '"nope"' })).status).toBe(200);
  });

  test('negotiates br, then gzip, from Accept-Encoding, using the precompressed files', async () => {
    const plain = await get(`/${jsPath}`);
    const br = await get(`/${jsPath}`, { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get(`/${jsPath}`, { 'accept-encoding': 'gzip, br;q=0' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(manifest.files[jsPath].br);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
  });

  test('hashed assets are immutable for a year; sw.js is always revalidated', async () => {
    const asset = await get(`/${jsPath}`);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const sw = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(sw.status).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/sw.js', { 'accept-encoding': 'br', 'if-none-match': sw.headers.etag })).status).toBe(304);
  });

  test.each([
    '/nope',
    '/assets/nope.js',
    '/manifest.json',
    '/index.html.br',
    '/assets/../sw.js',
    '/assets/%2e%2e/sw.js',
    '/assets/..%2fsw.js',
    '/..%5c..%5cetc%5cpasswd',
    '/assets\\..\\sw.js',
    '/%00',
    '/assets/%00.js',
    '/media/../secret.txt',
    '/media/%2e%2e/secret.txt',
    '/media/%2E%2E%2Fsecret.txt',
    '/media/sounds/..%2f..%2fsecret.txt',
    '/media/sounds%5c..%5c..%5csecret.txt',
    '/media/sounds/bell%20one.wav%00',
    '/media//etc/passwd',
    '/media/%2fetc%2fpasswd',
    '/media/',
    '/media/sounds/other.wav',
  ])('unknown path or traversal attempt %s → 404', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('do not serve');
  });

  test('serves score media by its relative path, with ETag, max-age and ranges', async () => {
    const res = await get('/media/sounds/bell%20one.wav');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body.equals(wav)).toBe(true);
    expect((await get('/media/sounds/bell%20one.wav', { 'if-none-match': res.headers.etag })).status).toBe(304);
    const part = await get('/media/sounds/bell%20one.wav', { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.body.length).toBe(10);
    const tail = await get('/media/sounds/bell%20one.wav', { range: 'bytes=-100' });
    expect(tail.headers['content-range']).toBe('bytes 900-999/1000');
    expect((await get('/media/sounds/bell%20one.wav', { range: 'bytes=5000-' })).status).toBe(416);
  });

  test('HEAD answers headers only', async () => {
    const res = await get('/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(Number(res.headers['content-length'])).toBe(manifest.files['index.html'].br);
  });

  test('registration fails with a clear, coded error when the app was never built', async () => {
    const other = Fastify();
    await expect(other.register(staticRoutes, { dir: join(work, 'missing') }).ready()).rejects.toMatchObject({
      code: 'AUDIENCE_NOT_BUILT',
      message: expect.stringContaining('build.js'),
    });
    await other.close();
  });
});

describe('helpers', () => {
  test('pickEncoding honours q-values and availability', () => {
    const both = { br: true, gzip: true };
    expect(pickEncoding(undefined, both)).toBeNull();
    expect(pickEncoding('gzip, br', both)).toBe('br');
    expect(pickEncoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(pickEncoding('br;q=0', both)).toBeNull();
    expect(pickEncoding('*', both)).toBe('br');
    expect(pickEncoding('*;q=0, gzip', both)).toBe('gzip');
    expect(pickEncoding('br', { br: false, gzip: true })).toBeNull();
    expect(pickEncoding('identity', both)).toBeNull();
  });

  test('parseRange', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
  });

  test('decodeMediaPath accepts plain relative paths only', () => {
    expect(decodeMediaPath('a/b%20c.wav')).toBe('a/b c.wav');
    for (const bad of [
      '',
      '..',
      'a/../b',
      '%2e%2e/x',
      'a%2f..%2fb',
      '/etc',
      '%2fetc',
      'a\\b',
      'a%5cb',
      'a%00',
      'a//b',
      './a',
      '%E0%A4%A',
    ]) {
      expect(decodeMediaPath(bad)).toBeNull();
    }
  });
});
