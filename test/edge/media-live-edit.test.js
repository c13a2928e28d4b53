// An image dropped into the score editor and applied while the show plays reaches the edge too
// (docs/reference/score-editing-api.md#apply-while-playing): the live edit emits `edited`, and the
// edge mirror compares the score's media again. Real show server, real workerd.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../support/show.js';
import { startEdge, waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
const SCORE = {
  format: 'tutti-score/1',
  id: 'live-media',
  title: 'Live media',
  bars: 40,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 120 }],
  cues: [{ at: { bar: 1 }, view: { text: 'Hello' } }],
};

let dir;
let edge;
let server;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-live-media-'));
  await writeFile(path.join(dir, 'live-media.score.json'), `${JSON.stringify(SCORE, null, 2)}\n`);
  edge = await startEdge({ port: await freePort() });
  server = await startShow({ scorePath: path.join(dir, 'live-media.score.json'), edgeUrl: edge.url, edgeToken: edge.token });
}, 90_000);
afterAll(async () => {
  await server?.close();
  await edge?.stop();
  await rm(dir, { recursive: true, force: true });
});

const call = (method, route, body) =>
  fetch(`${server.controlUrl}${route}`, { method, headers: { authorization: 'Bearer test-token' }, body }).then((res) => res.json());

test('an uploaded image applied while playing is mirrored to the edge, byte for byte', async () => {
  expect(server.status().transport).toBe('playing');
  // The first comparison (on connecting) is over: only the edit can start another.
  await waitFor(() => server.status().edge.connected === true && server.status().edge.media?.state === 'idle', {
    timeoutMs: 20_000,
    what: 'the edge mirror to connect and compare the media once',
  });
  await server.edge.mediaIdle();
  const { asset } = await call('POST', '/api/score/media?name=light.png', PNG);
  const text = await readFile(path.join(dir, 'live-media.score.json'), 'utf8');
  const edited = { ...SCORE, assets: [asset], cues: [...SCORE.cues, { at: { bar: 30 }, view: { image: asset.id } }] };
  const saved = await call('PUT', '/api/score/document', JSON.stringify({ revision: sha(text), score: edited, apply: true }));
  expect(saved).toMatchObject({ ok: true, applied: 'live' });
  await waitFor(() => server.status().edge.media?.uploaded === 1, { timeoutMs: 20_000, what: 'the edge to hold the new image' });
  const remote = await fetch(`${edge.url}/media/${asset.src}`);
  expect(remote.status).toBe(200);
  expect(Buffer.from(await remote.arrayBuffer()).equals(PNG)).toBe(true);
}, 60_000);
