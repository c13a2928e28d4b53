// What a tempo and a meter read as (issue 40, items 4 and 22). An eighth's pickup before ♩ = 100
// is one tempo entry, 100 in quarters (not 200 eighths then 100), and a stopped show at the
// pickup says 100. A fast 6/8 keeps its printed 6/8 and is counted in 2 (`count`): the import's
// summary, the validator, the console's score card and a real show server's beats say so.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importNotationFile } from '../../local-server/src/import/import-file.js';
import { runCli } from '../../local-server/src/cli.js';
import { startShowServer } from '../../local-server/src/server.js';
import { scoreSummary } from '../../local-server/src/console/score-summary.js';
import { validateScore } from '#core/score/validate.js';
import { createTimeline } from '#core/score/timeline.js';
import { waitFor } from '../support/clients.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const MOZART = path.join(fixtures, 'corpus/musicxml/Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml');
const PRESTO = path.join(fixtures, 'compound-meter/presto-six-eight.musicxml');
const TOKEN = 'pickup-meter-token';

let dir;
let server;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-pickup-meter-'));
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function api(route, body) {
  const res = await fetch(`${server.controlUrl}${route}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

/** Import through the console's route, save, load; the loaded score's summary. */
async function importAndLoad(file) {
  const input = path.join(dir, path.basename(file));
  await copyFile(file, input);
  const done = await api('/api/score/import', { path: input, save: true, force: true });
  expect(done.status).toBe(200);
  const loaded = await api('/api/score', { path: done.body.out });
  expect(loaded.status).toBe(200);
  return done.body;
}

test('a 1/8 pickup before ♩ = 100 (Mozart K. 387): one mark, and a stopped show at the pickup says 100 bpm', async () => {
  const out = [];
  expect(
    await runCli(['import', MOZART, '--out', path.join(dir, 'k387.score.json')], { out: (s) => out.push(s), err: (s) => out.push(s) }),
  ).toBe(0);
  expect(out.join('\n')).toMatch(/Tempo: +1 mark: 100 bpm \(quarters\) at bar 1\n/);

  const done = await importAndLoad(MOZART);
  expect(done.score.tempo).toBe(100);
  const status = await api('/api/status');
  expect(status.body).toMatchObject({ transport: 'stopped', tempo: 100 });
  expect(status.body.position).toMatchObject({ bar: 1, beat: 1 });
  // Setting the tempo at the pickup sets the mark's tempo: 50 halves the whole piece.
  expect((await api('/api/tempo', { bpm: 50 })).status).toBe(200);
  expect((await api('/api/status')).body.tempo).toBe(50);
  await api('/api/tempo', { bpm: null });
}, 30_000);

test('a fast 6/8 keeps its printed 6/8, counted in 2, in the summary, the score card and the show', async () => {
  const { score, warnings } = await importNotationFile(PRESTO);
  expect(score.meter).toEqual([{ bar: 1, beats: 6, unit: 8, count: 2 }]);
  expect(score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 138 }]);
  expect(score.sections).toEqual([{ at: { bar: 5, beat: 1 }, mark: 'A' }]);
  expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/counted in 2 dotted beats a bar, still shown as 6\/8/));
  // Eight bars of two dotted quarters at 138: 16 beats, 60000 / 138 ms each.
  const timeline = createTimeline(/** @type {any} */ (validateScore(score).score));
  expect(timeline.totalBeats).toBe(16);
  expect(timeline.msAt(16)).toBeCloseTo((16 * 60000) / 138, 6);
  expect(scoreSummary(/** @type {any} */ (validateScore(score).score)).meter).toEqual([{ bar: 1, beats: 6, unit: 8, count: 2 }]);

  const done = await importAndLoad(PRESTO);
  expect(done.lines.join('\n')).toMatch(/Time signatures: 6\/8 counted in 2 \(bar 1\)/);
  expect(done.score.meter).toEqual([{ bar: 1, beats: 6, unit: 8, count: 2 }]);
  // The show counts the bar's two beats: OSC and the part pages get bar/beat of the counted beat.
  await api('/api/transport', { action: 'play' });
  await waitFor(() => server.show.engine.status().position.index >= 1, 10_000, 'the presto plays');
  await api('/api/transport', { action: 'stop' });
  expect(server.show.engine.status().position.beats).toBe(2);
}, 30_000);

test('the validator takes count only where it divides the printed beats; scores without count read as before', () => {
  const base = { format: 'tutti-score/1', id: 'm', title: 'M', bars: 2, tempo: [{ at: { bar: 1 }, bpm: 138 }] };
  const ok = validateScore({
    ...base,
    meter: [{ bar: 1, beats: 6, unit: 8, count: 2 }],
    cues: [{ at: { bar: 2, beat: 2 }, view: { text: 'x' } }],
  });
  expect(ok.ok).toBe(true);
  const beat3 = validateScore({
    ...base,
    meter: [{ bar: 1, beats: 6, unit: 8, count: 2 }],
    cues: [{ at: { bar: 2, beat: 3 }, view: { text: 'x' } }],
  });
  expect(beat3.ok).toBe(false);
  expect(beat3.problems.map((p) => p.message)).toContainEqual('beat 3 does not exist in bar 2, which has 2 beats (6/8 (counted in 2))');
  const four = validateScore({ ...base, meter: [{ bar: 1, beats: 6, unit: 8, count: 4 }] });
  expect(four.problems.map((p) => p.message)).toContainEqual(
    '6/8 cannot be counted in 4: the count must divide the 6 beats into equal beats',
  );
  const plain = validateScore({
    ...base,
    meter: [{ bar: 1, beats: 6, unit: 8 }],
    cues: [{ at: { bar: 2, beat: 6 }, view: { text: 'x' } }],
  });
  expect(plain.ok).toBe(true);
  expect(plain.score.meter).toEqual([{ bar: 1, beats: 6, unit: 8 }]);
  const dottedAlone = validateScore({
    ...base,
    meter: [{ bar: 1, beats: 6, unit: 8 }],
    tempo: [{ at: { bar: 1 }, bpm: 138, dotted: true }],
  });
  expect(dottedAlone.problems.map((p) => p.message)).toContainEqual('a dotted tempo needs the "unit" it dots');
});
