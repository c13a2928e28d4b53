// MIDI files as LilyPond and abc2midi write them (test/fixtures/notation-writers/, SOURCES.md
// there): a pickup written as nothing but notes, found from where the later time signature falls
// (or given with --pickup), abc2midi's tempo a tick late, its "note track" text and its release
// tail. The programs themselves run in `npm run test:interop`.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importNotationFile } from '../../local-server/src/import/import-file.js';
import { runCli } from '../../local-server/src/cli.js';
import { scoreSummary } from '../../local-server/src/console/score-summary.js';
import { NOTATION_WRITERS_DIR, NOTATION_WRITER_CASES, expectNotationWriterCase } from '../support/notation-writers.js';

for (const c of NOTATION_WRITER_CASES) {
  test(`${c.name} (${c.midi})`, async () => {
    expectNotationWriterCase(await importNotationFile(path.join(NOTATION_WRITERS_DIR, c.midi), c.options), c);
  });
}

test('a pickup in one meter throughout cannot be seen in the file: without --pickup the bars run from the first note', async () => {
  const { score, warnings } = await importNotationFile(path.join(NOTATION_WRITERS_DIR, 'upbeat-one-meter.midi'));
  expect(score.meter).toEqual([{ bar: 1, beats: 4, unit: 4 }]);
  expect(score.printedBars).toBeUndefined();
  expect(warnings).toEqual([]);
});

test('--pickup 0 turns the found pickup off: the 6/8 then cuts a 3/4 bar short, with a warning', async () => {
  const { score, warnings } = await importNotationFile(path.join(NOTATION_WRITERS_DIR, 'upbeat-meter-change.midi'), {
    pickupBeats: 0,
  });
  expect(score.meter).toEqual([
    { bar: 1, beats: 3, unit: 4 },
    { bar: 9, beats: 1, unit: 4 },
    { bar: 10, beats: 6, unit: 8 },
  ]);
  expect(warnings).toEqual([{ measure: '9', message: 'is cut short by a time signature change inside it' }]);
});

test('tutti import --pickup: given in the CLI, refused for MusicXML, a whole bar, a length no bar has, or a word', async () => {
  const run = async (...args) => {
    const lines = [];
    const code = await runCli(['import', ...args], { out: (s) => lines.push(s), err: (s) => lines.push(s) });
    return { code, text: lines.join('\n') };
  };
  const midi = path.join(NOTATION_WRITERS_DIR, 'upbeat-one-meter.midi');
  const dir = await mkdtemp(path.join(tmpdir(), 'tutti-pickup-'));
  try {
    const written = await run(midi, '--pickup', '0.5', '--out', path.join(dir, 'march.score.json'));
    expect(written.code).toBe(0);
    expect(written.text).toContain('Time signatures: 1/8 (bar 1) · 4/4 (bar 2)');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  expect(await run(midi, '--pickup', '4')).toEqual({
    code: 1,
    text: 'tutti import: a pickup of 4 beats is a whole 4/4 bar or more; a pickup is shorter than its bar',
  });
  expect(await run(midi, '--pickup', '0.3')).toEqual({
    code: 1,
    text: 'tutti import: a pickup of 0.3 beats of 4/4 is no length a bar can have; give it in whole 32nd notes (0.5 = an eighth in 4/4, 0.25 a 16th)',
  });
  expect((await run(midi, '--pickup', 'one')).code).toBe(2);
  expect((await run(midi, '--pickup')).text).toMatch(/^tutti import: --pickup needs the pickup's length in beats/);
  const xml = path.join(NOTATION_WRITERS_DIR, '..', 'corpus', 'musicxml', 'Saltarello.mxl');
  expect(await run(xml, '--pickup', '1')).toEqual({
    code: 1,
    text: 'tutti import: Saltarello.mxl is MusicXML, which marks its own pickup; a pickup is given for MIDI files only',
  });
});

test("the console's opening tempo of a piece with a pickup is in the next bar's beats: ♩ = 112, not the eighth pickup's 224", async () => {
  const march = await importNotationFile(path.join(NOTATION_WRITERS_DIR, 'upbeat-one-meter.midi'), { pickupBeats: 0.5 });
  expect(march.score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 112, unit: 4 }]); // the pickup's tempo in the next bar's quarters
  expect(scoreSummary(march.score).tempo).toBe(112);
  // A score imported before that wrote the pickup's eighths (224 then 112): still shown as 112.
  const before = {
    ...march.score,
    tempo: [
      { at: { bar: 1, beat: 1 }, bpm: 224 },
      { at: { bar: 2, beat: 1 }, bpm: 112 },
    ],
  };
  expect(scoreSummary(before).tempo).toBe(112);
  // A pickup in the same unit as the bar after it keeps its own mark (OSMD's pickup at ♩ = 60, then 110).
  const marked = await importNotationFile(
    path.join(NOTATION_WRITERS_DIR, '..', 'corpus', 'musicxml', 'test_metronome_mark_with_pickup_measure.musicxml'),
  );
  expect(scoreSummary(marked.score).tempo).toBe(60);
});
