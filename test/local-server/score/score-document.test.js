// The score editor's routes (SPEC §11, docs/reference/score-editing-api.md) on a real show server
// on real sockets, with a real score folder: GET/PUT /api/score/document and POST /api/score/media,
// and every bad input they refuse with the file (and the folder) untouched.

import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';

const TOKEN = 'test-token';
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const SCORE = {
  $schema: './score.schema.json',
  format: 'tutti-score/1',
  id: 'edit-me',
  title: 'Edit me',
  bars: 8,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 120 }],
  cues: [{ at: { bar: 1 }, view: { text: 'Hello' } }],
};
// As a composer's editor might have written it: compact, keys in another order than the canonical form.
const WRITTEN = `{"format":"tutti-score/1","$schema":"./score.schema.json","id":"edit-me","title":"Edit me","bars":8,"meter":[{"bar":1,"beats":4,"unit":4}],"tempo":[{"at":{"bar":1},"bpm":120}],"cues":[{"at":{"bar":1},"view":{"text":"Hello"}}]}`;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

let dir;
let outside;
let file;
let server;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-score-document-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'tutti-score-document-outside-'));
  file = path.join(dir, 'edit-me.score.json');
  await writeFile(file, WRITTEN);
  server = await startShow({ scorePath: file, autoplay: false });
});
afterEach(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const call = (method, route, body, headers = {}) =>
  fetch(`${server.controlUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
const put = (body) => call('PUT', '/api/score/document', body);
const upload = (name, bytes) =>
  call('POST', `/api/score/media?name=${encodeURIComponent(name)}`, bytes, { 'content-type': 'application/octet-stream' });
const untouched = async () => expect(await readFile(file, 'utf8')).toBe(WRITTEN);

test('GET answers the file as written, its revision (sha256 of its bytes) and its path', async () => {
  const res = await call('GET', '/api/score/document');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ path: file, revision: sha(WRITTEN), score: JSON.parse(WRITTEN), problem: null });
});

test('PUT writes the canonical form atomically, keeps the previous bytes as .bak, answers the new revision and reloads the show', async () => {
  const edited = { ...JSON.parse(WRITTEN), title: 'Edited' };
  const res = await put({ revision: sha(WRITTEN), score: edited });
  expect(res.status).toBe(200);
  const answer = await res.json();
  const text = await readFile(file, 'utf8');
  expect(text).toBe(`${JSON.stringify({ ...SCORE, title: 'Edited' }, null, 2)}\n`); // schema key order, 2 spaces, newline
  expect(answer).toEqual({ ok: true, path: file, revision: sha(text), applied: 'loaded' });
  expect(await readFile(`${file}.bak`, 'utf8')).toBe(WRITTEN);
  expect(server.show.engine.score().title).toBe('Edited');
  expect((await readdir(dir)).sort()).toEqual(['edit-me.score.json', 'edit-me.score.json.bak']);
  // The same score saved again writes the same bytes (the one written form).
  await put({ revision: answer.revision, score: JSON.parse(text) });
  expect(await readFile(file, 'utf8')).toBe(text);
});

test('an invalid score: 400 with each problem (path and sentence), the file untouched, counted', async () => {
  const res = await put({ revision: sha(WRITTEN), score: { ...SCORE, bars: 0, cues: [{ at: { bar: 99 }, view: { text: 'x' } }] } });
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body).toMatchObject({ error: 'INVALID_SCORE', message: expect.stringMatching(/nothing was written/) });
  expect(body.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['bars']));
  for (const problem of body.problems) expect(problem).toEqual({ path: expect.any(String), message: expect.any(String) });
  await untouched();
  const metrics = await (await call('GET', '/metrics')).text();
  expect(metrics).toMatch(/tutti_bad_input_total\{source="score"\} 1/);
});

test('a stale revision: 409 STALE_REVISION with the current one, the file untouched', async () => {
  const res = await put({ revision: sha('something else'), score: SCORE });
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ error: 'STALE_REVISION', message: expect.any(String), currentRevision: sha(WRITTEN) });
  await untouched();
});

test('while playing: 409 PLAYING, the file untouched', async () => {
  await call('POST', '/api/transport', { action: 'play' });
  const res = await put({ revision: sha(WRITTEN), score: { ...SCORE, title: 'Edited' } });
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({ error: 'PLAYING', message: expect.stringMatching(/"apply": true/) });
  await untouched();
});

test('a score file that is a symbolic link is refused, the linked file untouched', async () => {
  const secret = path.join(outside, 'secret.json');
  await writeFile(secret, WRITTEN);
  await rm(file);
  await symlink(secret, file);
  const res = await put({ revision: sha(WRITTEN), score: SCORE });
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({ error: 'SYMLINK_REFUSED', message: expect.stringMatching(/is a symbolic link/) });
  expect(await readFile(secret, 'utf8')).toBe(WRITTEN);
  expect((await lstat(file)).isSymbolicLink()).toBe(true);
});

test('no token: 401 on every editor route, nothing written', async () => {
  for (const [method, route] of [
    ['GET', '/api/score/document'],
    ['PUT', '/api/score/document'],
    ['POST', '/api/score/media?name=a.png'],
  ]) {
    const res = await fetch(`${server.controlUrl}${route}`, {
      method,
      ...(method === 'GET' ? {} : { body: JSON.stringify({ revision: null, score: SCORE }) }),
    });
    expect(res.status).toBe(401);
  }
  await untouched();
  expect(await readdir(dir)).toEqual(['edit-me.score.json']);
});

test('a PNG is stored in the score’s media folder and answered as the asset entry to add', async () => {
  const res = await upload('Stage light.png', PNG);
  expect(res.status).toBe(200);
  const { asset } = await res.json();
  expect(asset).toEqual({ id: 'Stage-light', kind: 'image', src: 'media/edit-me/Stage-light.png', bytes: PNG.length });
  expect(await readFile(path.join(dir, asset.src))).toEqual(PNG);
  // The same name with other bytes never replaces it.
  const other = await (await upload('Stage light.png', Buffer.concat([PNG, PNG]))).json();
  expect(other.asset.src).toBe('media/edit-me/Stage-light-2.png');
  expect(await readFile(path.join(dir, asset.src))).toEqual(PNG);
  // And the entry makes a valid score.
  const score = { ...SCORE, assets: [asset], cues: [{ at: { bar: 1 }, view: { text: 'Hi', image: asset.id } }] };
  expect((await put({ revision: sha(WRITTEN), score })).status).toBe(200);
});

test.each([['../escape.png'], ['/tmp/absolute.png'], ['a\\b.png'], ['nul\u0000.png'], ['..'], ['.hidden.png'], ['']])(
  'the name %j is refused with 400 BAD_MEDIA_NAME, nothing written',
  async (name) => {
    const res = await upload(name, PNG);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'BAD_MEDIA_NAME' });
    expect(await readdir(dir)).toEqual(['edit-me.score.json']);
    expect(await readdir(path.dirname(dir)).then((names) => names.includes('escape.png'))).toBe(false);
  },
);

test.each([
  ['text named .png', 'notes.png', Buffer.from('just some text, not an image at all')],
  ['a JPEG named .png', 'photo.png', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])],
  ['SVG (script-capable)', 'card.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
  ['SVG named .png', 'card.png', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
])('%s is refused with 415 BAD_MEDIA_TYPE', async (_what, name, bytes) => {
  const res = await upload(name, bytes);
  expect(res.status).toBe(415);
  expect(await res.json()).toMatchObject({ error: 'BAD_MEDIA_TYPE' });
  expect(await readdir(dir)).toEqual(['edit-me.score.json']);
});

test('an upload over the size cap is refused with 413 MEDIA_TOO_BIG, nothing written', async () => {
  const big = Buffer.concat([PNG, Buffer.alloc(25 * 1024 * 1024)]);
  const res = await upload('big.png', big);
  expect(res.status).toBe(413);
  expect(await res.json()).toMatchObject({ error: 'MEDIA_TOO_BIG' });
  expect(await readdir(dir)).toEqual(['edit-me.score.json']);
});

test('a linked media folder is refused: nothing is written outside the score’s folder', async () => {
  await mkdir(path.join(dir, 'media'));
  await symlink(outside, path.join(dir, 'media', 'edit-me'));
  const res = await upload('x.png', PNG);
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({ error: 'SYMLINK_REFUSED' });
  expect(await readdir(outside)).toEqual([]);
});

test('a score path that became a folder: GET says why, PUT is refused and writes nothing', async () => {
  await rm(file);
  await mkdir(file);
  expect(await (await call('GET', '/api/score/document')).json()).toEqual({
    path: file,
    revision: null,
    score: null,
    problem: `${file} is not a regular file`,
  });
  const res = await put({ revision: null, score: SCORE });
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({
    error: 'STALE_REVISION',
    currentRevision: null,
    message: expect.stringMatching(/is not a regular file; nothing was written/),
  });
  expect(await readdir(file)).toEqual([]);
});

test('a deleted score file: GET answers revision null, and PUT with null writes it again', async () => {
  await rm(file);
  expect(await (await call('GET', '/api/score/document')).json()).toMatchObject({
    revision: null,
    score: null,
    problem: expect.stringMatching(/does not exist/),
  });
  const res = await put({ revision: null, score: SCORE });
  expect(res.status).toBe(200);
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(SCORE);
  expect(await readdir(dir)).toEqual(['edit-me.score.json']); // no backup of nothing
});

test('two saves from the same revision at once: one is written, the other is stale', async () => {
  const [a, b] = await Promise.all([
    put({ revision: sha(WRITTEN), score: { ...SCORE, title: 'A' } }),
    put({ revision: sha(WRITTEN), score: { ...SCORE, title: 'B' } }),
  ]);
  expect([a.status, b.status].sort()).toEqual([200, 409]);
  const winner = a.status === 200 ? 'A' : 'B';
  expect(JSON.parse(await readFile(file, 'utf8')).title).toBe(winner);
  expect(await readFile(`${file}.bak`, 'utf8')).toBe(WRITTEN);
});
