// Every corpus file (test/fixtures/corpus/, real exports from notation programs and sequencers;
// SOURCES.md there) imports to a score that validates and plays in a real show server; for
// several, the time map is asserted exactly against what the file says (measures counted and
// marks read by hand from the XML / MIDI events).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importNotationFile } from '../../local-server/src/import/import-file.js';
import { runCli } from '../../local-server/src/cli.js';
import { startShowServer } from '../../local-server/src/server.js';
import { validateScore } from '#core/score/validate.js';
import { createTimeline } from '#core/score/timeline.js';
import { waitFor } from '../support/clients.js';

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus');
const fixture = (name) => path.join(corpus, /\.midi?$/.test(name) ? 'midi' : 'musicxml', name);
const imported = (name) => importNotationFile(fixture(name)).then((r) => r.score);

test('every corpus file imports with `tutti import`, validates as written and plays in a show server', async () => {
  const files = [
    ...(await readdir(path.join(corpus, 'musicxml'))).map((f) => path.join(corpus, 'musicxml', f)),
    ...(await readdir(path.join(corpus, 'midi'))).map((f) => path.join(corpus, 'midi', f)),
  ];
  expect(files.length).toBe(19); // 15 MusicXML + 4 MIDI (SOURCES.md)
  const dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-'));
  const token = 'import-corpus-token';
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token });
  const api = async (route, body) => {
    const res = await fetch(`${server.controlUrl}${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
  try {
    for (const file of files) {
      const out = path.join(dir, `${path.basename(file)}.score.json`);
      const lines = [];
      const code = await runCli(['import', file, '--out', out], { out: (s) => lines.push(s), err: (s) => lines.push(s) });
      expect({ file, code }).toEqual({ file, code: 0 });
      const check = [];
      expect(await runCli(['validate', out], { out: (s) => check.push(s), err: (s) => check.push(s) })).toBe(0);
      // A real show server loads it and plays: the position moves.
      const loaded = await api('/api/score', { path: out });
      expect({ file, status: loaded.status }).toEqual({ file, status: 200 });
      await api('/api/transport', { action: 'play' });
      await waitFor(() => server.show.engine.status().position.index >= 1, 10_000, `${path.basename(file)} plays`);
      await api('/api/transport', { action: 'stop' });
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

test('1st/2nd endings played out: test_repeat_volta_simple (2/4; m1, m2 = ending 1 with :|, m3 = ending 2)', async () => {
  const score = await imported('test_repeat_volta_simple.musicxml');
  expect(score.bars).toBe(4); // 1, 2, 1, 3
  expect(score.meter).toEqual([{ bar: 1, beats: 2, unit: 4 }]);
  expect(score.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 3, number: 1, pass: 2 },
    { bar: 4, number: 3 },
  ]);
  expect(validateScore(score).ok).toBe(true);
});

test('a forward repeat on a left barline: test_repeat_left_barline_simple plays its one measure twice', async () => {
  const score = await imported('test_repeat_left_barline_simple.musicxml');
  expect(score.bars).toBe(2);
  expect(score.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 2, number: 1, pass: 2 },
  ]);
});

test('tempo changes: test_tempo_change (2/4, quarter = 120 in m1, quarter = 60 in m2)', async () => {
  const score = await imported('test_tempo_change.musicxml');
  expect(score.bars).toBe(2);
  expect(score.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 120 },
    { at: { bar: 2, beat: 1 }, bpm: 60 },
  ]);
  expect(score.printedBars).toBeUndefined(); // printed numbers are the running count
});

test('a pickup is a first bar of its real length, with its own tempo mark (quarter = 60, 110, 120)', async () => {
  const score = await imported('test_metronome_mark_with_pickup_measure.musicxml');
  // m0 implicit: a half-note rest in 4/4 → a 2/4 bar; then m1–m3 in 4/4.
  expect(score.bars).toBe(4);
  expect(score.meter).toEqual([
    { bar: 1, beats: 2, unit: 4 },
    { bar: 2, beats: 4, unit: 4 },
  ]);
  expect(score.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 60 },
    { at: { bar: 2, beat: 1 }, bpm: 110 },
    { at: { bar: 3, beat: 1 }, bpm: 120 },
  ]);
  expect(score.printedBars).toEqual([{ bar: 1, number: 0 }]);
});

test('an eighth-note pickup in 4/4 (Mozart K. 387): its one mark, quarter = 100, is one entry in quarters, not 200 eighths', async () => {
  const score = await imported('Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml');
  expect(score.bars).toBe(13);
  expect(score.meter).toEqual([
    { bar: 1, beats: 1, unit: 8 },
    { bar: 2, beats: 4, unit: 4 },
  ]);
  expect(score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 100, unit: 4 }]);
  // The pickup's eighth still lasts an eighth at ♩ = 100: 0.3 s, then 12 bars of 2.4 s.
  const timeline = createTimeline(/** @type {any} */ (validateScore(score).score));
  expect(timeline.msAt(1)).toBeCloseTo(300, 6);
  expect(timeline.msAt(timeline.totalBeats)).toBeCloseTo(300 + 12 * 2400, 6);
  expect(timeline.bpmAt(0)).toBe(200); // the pickup's beat (an eighth) runs at 200 a minute
  expect(timeline.tempoAt(0)).toBe(100); // shown as the mark writes it
  expect(score.parts.map((p) => [p.id, p.osc])).toEqual([
    ['violin-1', '/violin-1'],
    ['violin-2', '/violin-2'],
    ['viola', '/viola'],
    ['violoncello', '/violoncello'],
  ]);
  expect(score).toMatchObject({ title: 'Mozart String Quartet in G Major K. 387 1st Mvmnt.', composer: 'Mozart' });
});

test('metronome marks with other beat units in a compressed .mxl (OSMD_function_test_metronome_marks)', async () => {
  const score = await imported('OSMD_function_test_metronome_marks.mxl');
  expect(score.bars).toBe(6);
  expect(score.meter).toEqual([{ bar: 1, beats: 4, unit: 4 }]);
  // Read by hand from the archive's Untitled.xml: "= 80" for quarter, dotted quarter, half,
  // dotted half, eighth, dotted eighth — in quarter notes 80, 120, 160, 240, 40, 60.
  expect(score.tempo.map((t) => [t.at.bar, t.bpm])).toEqual([
    [1, 80],
    [2, 120],
    [3, 160],
    [4, 240],
    [5, 40],
    [6, 60],
  ]);
});

test('6/8 with repeats and endings (Saltarello.mxl): dotted quarter = 120 is 360 eighths a minute', async () => {
  const score = await imported('Saltarello.mxl');
  expect(score.meter).toEqual([{ bar: 1, beats: 6, unit: 8 }]);
  expect(score.tempo[0]).toEqual({ at: { bar: 1, beat: 1 }, bpm: 360 });
  expect(score.bars).toBe(36);
  // Read by hand: m1–8 with a 1st ending over m7–8 and :|, 2nd ending m9, m10, then |: m11–20
  // with a 1st ending over m19–20 and :|, 2nd ending m21, m22. Played: 1–8, 1–6, 9, 10, 11–20,
  // 11–18, 21, 22 = 8 + 6 + 2 + 10 + 8 + 2 = 36 bars.
  expect(score.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 9, number: 1, pass: 2 },
    { bar: 15, number: 9 },
    { bar: 27, number: 11, pass: 2 },
    { bar: 35, number: 21 },
  ]);
});

test('rehearsal marks become sections, one per mark (test_rehearsal_marks_bolivia)', async () => {
  const score = await imported('test_rehearsal_marks_bolivia.musicxml');
  // Three <rehearsal> marks: Intro (m1, inside |: m1–8 :|), A (m9), B (m25, inside |: m25–32 :|).
  // A repeat does not start a section again: the section in force is still that one.
  expect(score.bars).toBe(48);
  expect(score.sections).toEqual([
    { at: { bar: 1, beat: 1 }, mark: 'Intro' },
    { at: { bar: 17, beat: 1 }, mark: 'A' },
    { at: { bar: 33, beat: 1 }, mark: 'B' },
  ]);
  const one = await imported('test_rehearsal_marks_simple_one_measure.musicxml');
  expect(one.sections).toEqual([{ at: { bar: 1, beat: 1 }, mark: 'A' }]);
});

test('MIDI: every tempo event, the time signature, named tracks as parts (Beethoven 7/ii)', async () => {
  const score = await imported('symphony_7_2.mid');
  expect(score.title).toBe('Symphony no.7, 2nd movement');
  expect(score.composer).toBe('Ludwig van Beethoven');
  expect(score.meter).toEqual([{ bar: 1, beats: 2, unit: 4 }]);
  expect(score.tempo.map((t) => [t.at.bar, t.at.beat, t.bpm])).toEqual([
    [1, 1, 72], // the file sets 72 again at bar 3: no change, so no second mark
    [276, 1, 62],
    [277, 1, 54],
  ]);
  expect(score.parts).toHaveLength(12);
  expect(score.parts[0]).toEqual({ id: '2-flutes', name: '2 Flutes', osc: '/2-flutes' });
});

test("MIDI with 699 tempo events: the imported tempo map keeps the file's total duration", async () => {
  const { createTimeline } = await import('#core/score/timeline.js');
  const midiFile = (await import('midi-file')).default;
  const { readFile } = await import('node:fs/promises');
  const midi = midiFile.parseMidi(await readFile(fixture('childrens_corner_1.mid')));
  // The file's own duration up to the end of the last full bar, from its tempo events.
  const ppq = midi.header.ticksPerBeat;
  const tempos = [];
  for (const track of midi.tracks) {
    let tick = 0;
    for (const e of track) {
      tick += e.deltaTime;
      if (e.type === 'setTempo') tempos.push({ tick, us: e.microsecondsPerBeat });
    }
  }
  tempos.sort((a, b) => a.tick - b.tick);
  const score = await imported('childrens_corner_1.mid');
  const endTick = score.bars * 4 * ppq;
  let ms = 0;
  tempos.forEach((t, i) => {
    const next = Math.min(endTick, tempos[i + 1]?.tick ?? endTick);
    if (next > t.tick) ms += ((next - t.tick) / ppq) * (t.us / 1000);
  });
  const checked = validateScore(score);
  const timeline = createTimeline(/** @type {any} */ (checked.score));
  expect(Math.abs(timeline.msAt(timeline.totalBeats) - ms)).toBeLessThan(50);
  expect(score.tempo.length).toBeGreaterThan(100);
});

test('every imported corpus score, printedBars included, also passes scores/score.schema.json (what editors check)', async () => {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { readFile: read } = await import('node:fs/promises');
  const schema = JSON.parse(await read(path.join(corpus, '..', '..', '..', 'scores', 'score.schema.json'), 'utf8'));
  const check = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  let withPrinted = 0;
  for (const dir of ['musicxml', 'midi']) {
    for (const name of await readdir(path.join(corpus, dir))) {
      const score = await imported(name);
      if (score.printedBars) withPrinted += 1;
      expect({ name, errors: check(score) ? null : check.errors }).toEqual({ name, errors: null });
    }
  }
  expect(withPrinted).toBeGreaterThanOrEqual(5);
  // And the schema refuses what the validator refuses.
  expect(
    check({
      format: 'tutti-score/1',
      id: 'x',
      title: 'X',
      bars: 2,
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 90 }],
      printedBars: [{ bar: 1, number: -1 }],
    }),
  ).toBe(false);
});
