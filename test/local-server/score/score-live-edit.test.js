// Applying an edit while the show plays (docs/reference/score-editing-api.md#apply-while-playing):
// a real show server plays a real score file; PUT /api/score/document with apply adds a later
// OSC cue. The beats go on without a gap or a repeat, the epoch stays, every cue is sent once,
// and the added one too. An edit that would move the show is refused.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';
import { writeVoteScore } from '../../support/vote-score.js';

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const SCORE = {
  format: 'tutti-score/1',
  id: 'live-edit',
  title: 'Live edit',
  bars: 7,
  meter: [{ bar: 1, beats: 2, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 240 }],
  cues: [
    { at: { bar: 1 }, osc: { address: '/a' } },
    { at: { bar: 2 }, osc: { address: '/b' } },
    { at: { bar: 3 }, osc: { address: '/c' } },
  ],
};

let dir;
let server;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-live-edit-'));
});
afterEach(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (method, route, body) =>
  fetch(`${server.controlUrl}${route}`, {
    method,
    headers: { authorization: 'Bearer test-token' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

/** Resolve when `check` holds, polling every 10 ms for at most `ms`. */
async function until(check, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function playing() {
  const file = path.join(dir, 'live-edit.score.json');
  const text = `${JSON.stringify(SCORE, null, 2)}\n`;
  await writeFile(file, text);
  server = await startShow({ scorePath: file, autoplay: false });
  const beats = [];
  const cues = [];
  server.show.events.on('beat', (beat) => beats.push(beat));
  server.show.events.on('osc-cue', (cue) => cues.push(cue.address));
  await call('POST', '/api/transport', { action: 'play' });
  return { file, text, beats, cues };
}

test('apply while playing: position continuous, same epoch, every cue once and the added one once', async () => {
  const { file, text, beats, cues } = await playing();
  await until(() => beats.some((b) => b.bar === 2));
  const before = await call('GET', '/api/status');
  const edited = { ...SCORE, cues: [...SCORE.cues, { at: { bar: 5 }, osc: { address: '/added' } }] };
  const saved = await call('PUT', '/api/score/document', { revision: sha(text), score: edited, apply: true });
  expect(saved).toEqual({ status: 200, body: { ok: true, path: file, revision: expect.any(String), applied: 'live' } });
  expect(sha(await readFile(file))).toBe(saved.body.revision);
  const after = await call('GET', '/api/status');
  expect(after.body.epoch).toBe(before.body.epoch);
  expect(after.body.transport).toBe('playing');
  expect(after.body.position.beats).toBeGreaterThanOrEqual(before.body.position.beats);
  await until(() => after.body && beats.some((b) => b.bar === 6));
  const indexes = beats.map((b) => b.index);
  expect(indexes).toEqual(indexes.map((_, i) => i)); // 0, 1, 2, … : no gap, no repeat
  expect(cues.filter((c) => c !== '/added')).toEqual(['/a', '/b', '/c']);
  expect(cues.filter((c) => c === '/added')).toEqual(['/added']);
  expect(server.show.engine.score().cues).toHaveLength(4);
}, 30_000);

test('an edit that changes the bars before the playing position is refused, nothing written', async () => {
  const { file, text, beats } = await playing();
  await until(() => beats.some((b) => b.bar === 3));
  const edited = { ...SCORE, meter: [{ bar: 1, beats: 3, unit: 4 }] };
  const refused = await call('PUT', '/api/score/document', { revision: sha(text), score: edited, apply: true });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({
    error: 'PLAYING',
    message: expect.stringMatching(/changes the bars, meter or form before the playing position/),
  });
  expect(await readFile(file, 'utf8')).toBe(text);
  expect(server.show.engine.score().meter[0].beats).toBe(2);
}, 30_000);

test('a prompt and a reaction window added while playing open at their bars (vote desk and reaction meter follow the edit)', async () => {
  const file = writeVoteScore({ prompt: false, reactions: [] });
  dir = path.dirname(file);
  const text = await readFile(file, 'utf8');
  server = await startShow({ scorePath: file, autoplay: false });
  const beats = [];
  const envelopes = [];
  server.show.events.on('beat', (beat) => beats.push(beat));
  server.show.events.on('envelope', (json) => envelopes.push(json));
  await call('POST', '/api/transport', { action: 'play' });
  await until(() => beats.some((b) => b.bar === 2));
  const prompt = {
    id: 'later',
    at: { bar: 4 },
    beats: 4,
    question: 'Which way now?',
    options: [
      { id: 'c', label: 'To C', section: 'C' },
      { id: 'stay', label: 'Stay' },
    ],
  };
  const reactions = [{ at: { bar: 5 }, until: { bar: 6 }, label: 'Applaud now', full: 12.5 }];
  const edited = { ...JSON.parse(text), prompts: [prompt], reactions };
  const saved = await call('PUT', '/api/score/document', { revision: sha(text), score: edited, apply: true });
  expect(saved.body).toMatchObject({ ok: true, applied: 'live' });
  await until(() => beats.some((b) => b.bar === 5 && b.beat === 2));
  expect(envelopes.some((json) => json.includes('Which way now?'))).toBe(true);
  expect(envelopes.some((json) => json.includes('Applaud now'))).toBe(true);
}, 30_000);

test('apply while paused: the show stays paused where it stood, and the edit plays from there', async () => {
  const { text, beats, cues } = await playing();
  await until(() => beats.some((b) => b.bar === 2));
  await call('POST', '/api/transport', { action: 'pause' });
  const before = await call('GET', '/api/status');
  const edited = { ...SCORE, cues: [...SCORE.cues, { at: { bar: 6 }, osc: { address: '/added' } }] };
  const saved = await call('PUT', '/api/score/document', { revision: sha(text), score: edited, apply: true });
  expect(saved.body).toMatchObject({ ok: true, applied: 'live' });
  const after = await call('GET', '/api/status');
  expect(after.body).toMatchObject({ transport: 'paused', epoch: before.body.epoch, position: before.body.position });
  await call('POST', '/api/transport', { action: 'play' });
  await until(() => beats.some((b) => b.bar === 7));
  expect(cues.filter((c) => c === '/added')).toEqual(['/added']);
  expect(cues.filter((c) => c === '/a')).toEqual(['/a']);
}, 30_000);
