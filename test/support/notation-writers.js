// The MIDI files LilyPond, abc2midi and MMA write from test/fixtures/notation-writers/ (SOURCES.md
// there), and what `tutti import` must read from each: shared by the suite on the committed files
// (test/import/notation-writers.test.js) and the one that runs the programs
// (test/interop/notation-writers.test.js).

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the sources and the committed MIDI files are. */
export const NOTATION_WRITERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'notation-writers');

const PICKUP_WARNING = /^is a pickup of 1 beat, read from .*'s barlines: its 6\/8 time signature comes 1 beat into a 3\/4 bar/;

/**
 * Each case: the source, the program and its arguments (`{src}`, `{out}`), the MIDI file it
 * writes, the import options, and the score and warnings expected.
 * @type {Array<{ name: string, source: string, program: string, args: string[], midi: string, options?: { pickupBeats?: number }, score: Record<string, any>, warnings: Array<{ measure: string, message: RegExp }> }>}
 */
export const NOTATION_WRITER_CASES = [
  {
    name: 'LilyPond: a pickup, then 3/4 turning 6/8, rehearsal marks',
    source: 'upbeat-meter-change.ly',
    program: 'lilypond',
    args: ['-s', '-o', '{out}', '{src}'],
    midi: 'upbeat-meter-change.midi',
    score: {
      title: 'Upbeat Waltz',
      bars: 13,
      meter: [
        { bar: 1, beats: 1, unit: 4 },
        { bar: 2, beats: 3, unit: 4 },
        { bar: 10, beats: 6, unit: 8 },
      ],
      tempo: [
        { at: { bar: 1, beat: 1 }, bpm: 100 },
        { at: { bar: 10, beat: 1 }, bpm: 180 },
        { at: { bar: 12, beat: 1 }, bpm: 150 },
      ],
      sections: [
        { at: { bar: 6, beat: 1 }, mark: 'A' },
        { at: { bar: 10, beat: 1 }, mark: 'B' },
      ],
      printedBars: [{ bar: 1, number: 0 }],
      parts: [{ name: 'flute' }, { name: 'cello' }],
    },
    warnings: [{ measure: '0', message: PICKUP_WARNING }],
  },
  {
    name: 'LilyPond: a pickup in one meter throughout, given with --pickup',
    source: 'upbeat-one-meter.ly',
    program: 'lilypond',
    args: ['-s', '-o', '{out}', '{src}'],
    midi: 'upbeat-one-meter.midi',
    options: { pickupBeats: 0.5 },
    score: {
      title: 'Upbeat March',
      bars: 5,
      meter: [
        { bar: 1, beats: 1, unit: 8 },
        { bar: 2, beats: 4, unit: 4 },
      ],
      // One mark, ♩ = 112, counted in quarters from the eighth's pickup on (issue 40, item 4).
      tempo: [{ at: { bar: 1, beat: 1 }, bpm: 112, unit: 4 }],
      printedBars: [{ bar: 1, number: 0 }],
      parts: [{ name: 'trumpet' }],
    },
    warnings: [],
  },
  {
    name: "LilyPond: a repeat with two endings, in \\unfoldRepeats as the README says; LilyPond's '\\new:' track name is none",
    source: 'repeat-unfolded.ly',
    program: 'lilypond',
    args: ['-s', '-o', '{out}', '{src}'],
    midi: 'repeat-unfolded.midi',
    score: {
      title: 'Volta',
      bars: 7, // c d e | c d f | g
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1, beat: 1 }, bpm: 120 }],
      printedBars: undefined,
      parts: [{ name: 'Track 2' }],
    },
    warnings: [],
  },
  {
    name: 'abc2midi: a pickup, then 3/4 turning 6/8 with a tempo one tick late',
    source: 'upbeat-reel.abc',
    program: 'abc2midi',
    args: ['{src}', '-o', '{out}'],
    midi: 'upbeat-reel.mid',
    score: {
      title: 'Upbeat Reel',
      composer: undefined,
      bars: 9,
      meter: [
        { bar: 1, beats: 1, unit: 4 },
        { bar: 2, beats: 3, unit: 4 },
        { bar: 6, beats: 6, unit: 8 },
      ],
      tempo: [
        { at: { bar: 1, beat: 1 }, bpm: 100 },
        { at: { bar: 6, beat: 1 }, bpm: 180 },
      ],
      printedBars: [{ bar: 1, number: 0 }],
      parts: [{ name: 'Channel 1' }],
    },
    warnings: [{ measure: '0', message: PICKUP_WARNING }],
  },
  {
    name: "abc2midi: two voices with MIDI programs, the first voice's track named after the tune",
    source: 'duet.abc',
    program: 'abc2midi',
    args: ['{src}', '-o', '{out}'],
    midi: 'duet.mid',
    score: {
      title: 'Duet',
      bars: 2,
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1, beat: 1 }, bpm: 90 }],
      parts: [{ name: 'Flute' }, { name: 'Cello' }],
    },
    warnings: [],
  },
  {
    name: 'MMA: a chord chart as a backing track, 4/4 then 3/4 on a barline (no pickup found)',
    source: 'backing-chart.mma',
    program: 'mma',
    args: ['-f', '{out}', '{src}'],
    midi: 'backing-chart.mid',
    score: {
      title: 'backing-chart',
      bars: 6,
      meter: [
        { bar: 1, beats: 4, unit: 4 },
        { bar: 5, beats: 3, unit: 4 },
      ],
      tempo: [
        { at: { bar: 1, beat: 1 }, bpm: 120 },
        { at: { bar: 5, beat: 1 }, bpm: 90 },
      ],
      printedBars: undefined,
      parts: [{ name: 'Drum' }, { name: 'Chord-Guitar' }, { name: 'Chord' }, { name: 'Bass' }],
    },
    warnings: [],
  },
];

/**
 * Hold an import's result to its case: the score's fields, and the warnings in full.
 * @param {{ score: Record<string, any>, warnings: Array<{ measure: string, message: string }> }} result
 * @param {(typeof NOTATION_WRITER_CASES)[number]} c
 */
export function expectNotationWriterCase(result, c) {
  const { parts, ...fields } = c.score;
  for (const [key, value] of Object.entries(fields)) expect([key, result.score[key]]).toEqual([key, value]);
  expect(result.score.parts.map((/** @type {any} */ p) => ({ name: p.name }))).toEqual(parts);
  expect(result.warnings).toHaveLength(c.warnings.length);
  c.warnings.forEach((w, i) => {
    expect(result.warnings[i].measure).toBe(w.measure);
    expect(result.warnings[i].message).toMatch(w.message);
  });
}
