// The runtime-free core of an import (core/import/): performance order with D.C., D.S., To Coda
// and Fine; accel./rit. between two marks as a gradual change; printed bar numbers in the score
// format (validated) and the helpers the console and part pages use to show and jump by them.
import { performanceOrder } from '#core/import/performance-order.js';
import { buildTimeMap } from '#core/import/time-map.js';
import { barOfPrinted, printedBarAt, printedBarLabel } from '#core/score/printed-bars.js';
import { validateScore } from '#core/score/validate.js';

const measure = (label, extra = {}) => ({ label, number: Number(label), length: 0, tempos: [], ramps: [], rehearsals: [], ...extra });
const labels = (measures, order) => order.map((o) => `${measures[o.index].label}${o.pass > 1 ? `'${o.pass}` : ''}`).join(' ');
const play = (measures) => {
  const warnings = [];
  const order = performanceOrder(measures, { maxBars: 10_000, warn: (m, msg) => warnings.push(`${m}: ${msg}`) });
  return { text: labels(measures, order), warnings };
};

test('D.C. al Fine: back to the start, repeats not taken again, stop at Fine', () => {
  const measures = [measure('1'), measure('2', { backwardRepeat: 2, fine: true }), measure('3'), measure('4', { dacapo: true })];
  expect(play(measures).text).toBe("1 2 1'2 2'2 3 4 1'3 2'3");
});

test('D.S. al Coda: back to the segno, "To Coda" jumps to the coda on the way through', () => {
  const measures = [
    measure('1'),
    measure('2', { segno: 'segno' }),
    measure('3', { tocoda: 'coda' }),
    measure('4', { dalsegno: 'segno' }),
    measure('5', { coda: 'coda' }),
    measure('6'),
  ];
  expect(play(measures).text).toBe("1 2 3 4 2'2 3'2 5 6");
});

test('three endings over a repeat played three times; a D.S. without a segno is reported, not followed', () => {
  const measures = [
    measure('1', { forwardRepeat: true }),
    measure('2', { endingStart: [1, 2], endingStop: true, backwardRepeat: 3 }),
    measure('3', { endingStart: [3], endingStop: true }),
    measure('4', { dalsegno: 'nowhere' }),
  ];
  const { text, warnings } = play(measures);
  expect(text).toBe("1 2 1'2 2'2 1'3 3 4");
  expect(warnings).toEqual(['4: D.S. has no segno sign to jump to; ignored']);
});

test('a repeat nested in another is played out in full on every pass of the outer one (MusicXML test suite 45m)', () => {
  const measures = [
    measure('1', { forwardRepeat: true }),
    measure('2', { forwardRepeat: true }),
    measure('3', { backwardRepeat: 3 }),
    measure('4', { backwardRepeat: 2 }),
    measure('5'),
  ];
  expect(play(measures).text).toBe("1 2 3 2'2 3'2 2'3 3'3 4 1'2 2'4 3'4 2'5 3'5 2'6 3'6 4'2 5");
  // Without the outer forward repeat, a backward repeat goes back to just after the last one.
  const unopened = [
    measure('1'),
    measure('2', { forwardRepeat: true }),
    measure('3', { backwardRepeat: 2 }),
    measure('4', { backwardRepeat: 2 }),
  ];
  expect(play(unopened).text).toBe("1 2 3 2'2 3'2 4 4'2");
});

test("endings as real files write them: a 1st ending's stop before its repeat barline, a 2nd ending with no 1st, a 2nd ending that starts the next repeat", () => {
  // Beethoven op. 18 no. 3 (music21's corpus): [1. closes a bar before the :|.
  const stopEarly = [
    measure('1', { forwardRepeat: true }),
    measure('2'),
    measure('3', { endingStart: [1], endingStop: true }),
    measure('4', { backwardRepeat: 2 }),
    measure('5', { endingStart: [2], endingStop: true }),
    measure('6'),
  ];
  expect(play(stopEarly).text).toBe("1 2 3 4 1'2 2'2 4'2 5 6");
  // Mozart K. 458: a :| with no 1st ending marked, then [2.
  const noFirst = [
    measure('1', { forwardRepeat: true }),
    measure('2', { backwardRepeat: 2 }),
    measure('3', { endingStart: [2], endingStop: true }),
    measure('4'),
  ];
  expect(play(noFirst)).toEqual({ text: "1 2 1'2 2'2 3 4", warnings: [] });
  // Beethoven op. 18 no. 4: the 2nd ending's bar also opens the next repeat.
  const endingOpens = [
    measure('1', { forwardRepeat: true }),
    measure('2', { endingStart: [1], endingStop: true, backwardRepeat: 2 }),
    measure('3', { endingStart: [2], endingStop: true, forwardRepeat: true }),
    measure('4', { backwardRepeat: 2 }),
    measure('5'),
  ];
  expect(play(endingOpens).text).toBe("1 2 1'2 3 4 3'2 4'2 5");
});

test('an ending no pass reaches is reported as never played', () => {
  const measures = [measure('1'), measure('2', { endingStart: [3], endingStop: true })];
  expect(play(measures)).toEqual({ text: '1', warnings: ['2: is never played (an ending no pass reaches, or after Fine); left out'] });
});

test('accel. between two marks becomes a gradual change reaching the next mark', () => {
  const warnings = [];
  const four = { beats: 4, unit: 4 };
  const map = buildTimeMap(
    [
      measure('1', { time: four, tempos: [{ at: 0, qpm: 80 }] }),
      measure('2', { ramps: [{ at: 2, text: 'accel.' }] }),
      measure('3'),
      measure('4', { tempos: [{ at: 0, qpm: 120 }] }),
    ],
    { maxBars: 100, warn: (m, msg) => warnings.push(`${m}: ${msg}`) },
  );
  expect(map.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 80 },
    { at: { bar: 2, beat: 3 }, bpm: 80, to: 120, until: { bar: 4, beat: 1 } },
    { at: { bar: 4, beat: 1 }, bpm: 120 },
  ]);
  expect(warnings).toEqual([]);
});

test('a tempo given in quarter notes is converted to the beats of a new meter unit', () => {
  const map = buildTimeMap(
    [
      measure('1', { time: { beats: 4, unit: 4 }, tempos: [{ at: 0, qpm: 90 }] }),
      measure('2', { time: { beats: 6, unit: 8 } }),
      measure('3', { time: { beats: 3, unit: 2 } }),
    ],
    { maxBars: 100, warn: () => {} },
  );
  expect(map.meter).toEqual([
    { bar: 1, beats: 4, unit: 4 },
    { bar: 2, beats: 6, unit: 8 },
    { bar: 3, beats: 3, unit: 2 },
  ]);
  expect(map.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 90 },
    { at: { bar: 2, beat: 1 }, bpm: 180 },
    { at: { bar: 3, beat: 1 }, bpm: 45 },
  ]);
});

const base = () => ({
  format: 'tutti-score/1',
  id: 'p',
  title: 'P',
  bars: 6,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 100 }],
});

test('printedBars is validated: first at bar 1, in order, within the piece, whole numbers', () => {
  // |: 1 2 :| 3 4  played as 1 2 1 2 3 4
  const ok = validateScore({
    ...base(),
    printedBars: [
      { bar: 1, number: 1 },
      { bar: 3, number: 1, pass: 2 },
      { bar: 5, number: 3 },
    ],
  });
  expect(ok.ok).toBe(true);
  expect(ok.score.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 3, number: 1, pass: 2 },
    { bar: 5, number: 3 },
  ]);
  const bad = validateScore({
    ...base(),
    printedBars: [
      { bar: 2, number: 1 },
      { bar: 2, number: -1, pass: 0 },
      { bar: 9, number: 1.5, x: 1 },
    ],
  });
  expect(bad.problems.map((p) => p.path)).toEqual(
    expect.arrayContaining([
      'printedBars[0].bar',
      'printedBars[1].bar',
      'printedBars[1].number',
      'printedBars[1].pass',
      'printedBars[2].bar',
      'printedBars[2].number',
      'printedBars[2]',
    ]),
  );
  expect(validateScore({ ...base(), printedBars: { bar: 1 } }).ok).toBe(false);
});

test('printed bar helpers: the label beside the running count, and jumping by "17, pass 2"', () => {
  const runs = [
    { bar: 1, number: 1 },
    { bar: 3, number: 1, pass: 2 },
    { bar: 5, number: 3 },
  ];
  expect(printedBarAt(runs, 3, 6)).toEqual({ number: 1, pass: 2, repeated: true });
  expect(printedBarAt(runs, 1, 6)).toEqual({ number: 1, pass: 1, repeated: true });
  expect(printedBarAt(runs, 6, 6)).toEqual({ number: 4, pass: 1, repeated: false });
  expect(printedBarLabel(runs, 4, 6)).toBe('2 (2nd time)');
  expect(printedBarLabel(runs, 1, 6)).toBe('1 (1st time)');
  expect(printedBarLabel(runs, 5, 6)).toBe('3');
  expect(printedBarLabel(undefined, 5, 6)).toBe('');
  expect(barOfPrinted(runs, 2, 2, 6)).toBe(4);
  expect(barOfPrinted(runs, 2, undefined, 6)).toBe(2);
  expect(barOfPrinted(runs, 4, 1, 6)).toBe(6);
  expect(barOfPrinted(runs, 4, 2, 6)).toBeUndefined();
  expect(barOfPrinted(runs, 9, 1, 6)).toBeUndefined();
});
