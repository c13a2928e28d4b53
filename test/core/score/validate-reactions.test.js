// Reaction windows in a score (docs/reference/score-format.md#reactions): rules reported as `path: sentence`.
import { expect, test } from '@jest/globals';
import { formatProblems, validateScore } from '#core/score/validate.js';
import { createReactionRate } from '#core/votes/reaction-rate.js';

const base = (reactions) => ({
  format: 'tutti-score/1',
  id: 'r',
  title: 'R',
  bars: 16,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 120 }],
  reactions,
});
const lines = (reactions) => formatProblems(validateScore(base(reactions)).problems).split('\n');

test('a valid window is kept with beat 1 filled in', () => {
  const result = validateScore(base([{ at: { bar: 3 }, until: { bar: 5, beat: 3 }, label: 'Applaud', full: 50 }]));
  expect(result.problems).toEqual([]);
  expect(result.score.reactions).toEqual([{ at: { bar: 3, beat: 1 }, until: { bar: 5, beat: 3 }, label: 'Applaud', full: 50 }]);
});

test('every mistake is named with its path', () => {
  expect(lines([{ at: { bar: 5 }, until: { bar: 5 } }])).toEqual([
    'reactions[0].until: the window must end after it starts (bar 5, beat 1), not at bar 5, beat 1',
  ]);
  expect(lines([{ at: { bar: 5 } }])).toEqual([
    'reactions[0].until: missing: where it goes again, e.g. { "bar": 28 } (that beat is no longer in the window)',
  ]);
  expect(
    lines([
      { at: { bar: 2 }, until: { bar: 6 } },
      { at: { bar: 4 }, until: { bar: 8 }, full: 0 },
    ]),
  ).toEqual([
    'reactions[1].full: expected the taps per second that read as level 1, a number from 1 to 1000000, got 0',
    'reactions[1].at: starts at bar 4, beat 1, inside reactions[0] (until bar 6, beat 1); reaction windows do not overlap',
  ]);
  expect(lines([{ at: { bar: 2 }, until: { bar: 3 }, lable: 'x' }])).toEqual(["reactions[0]: unknown key 'lable' (did you mean 'label'?)"]);
});

test('the level: taps per second, smoothed, normalised to 0–1', () => {
  const meter = createReactionRate({ now: 0 });
  meter.add(20); // 20 taps in 250 ms = 80/s
  expect(meter.tick(250, 80)).toEqual({ rate: 40, level: 0.5 });
  meter.add(20);
  expect(meter.tick(500, 80).level).toBe(0.75);
  expect(meter.tick(750, 80).level).toBe(0.38); // nobody tapped: it decays
  meter.add(1000);
  expect(meter.tick(1000, 80).level).toBe(1); // capped
});
