// What a part page shows and clicks (core/client/part-plan.js): countdown in beats to the next
// cue, the list after it, count-in beats before an entry, and the beats a click is scheduled for.
import { cuesForPart, upcomingCues, clickFor, cueText, beatsAhead, firstCueFrom, sectionAt } from '#core/client/part-plan.js';
import { segmentAt, beatInSegment } from '#core/engine/segment.js';
import { createTimeline } from '#core/score/timeline.js';
import { fourFourScore } from '../../support/scores.js';

const cues = [
  { i: 4, bar: 2, beat: 1, part: 'vln', address: '/vln/a', args: ['A', 'pp'] },
  { i: 6, bar: 2, beat: 3, part: null, address: '/all', args: [], label: 'breathe' },
  { i: 9, bar: 3, beat: 2, part: 'vc', address: '/vc/b', args: [] },
  { i: 12, bar: 4, beat: 1, part: 'vln', address: '/vln/c', args: [3] },
];

test('a part follows its own cues and those to everyone; * follows all', () => {
  expect(cuesForPart(cues, 'vln').map((c) => c.i)).toEqual([4, 6, 12]);
  expect(cuesForPart(cues, 'vc').map((c) => c.i)).toEqual([6, 9]);
  expect(cuesForPart(cues, '*')).toHaveLength(4);
});

test('countdown: the cue on this beat is "now" (0), then counts down to the next', () => {
  const vln = cuesForPart(cues, 'vln');
  expect(upcomingCues(vln, 0, 2).map((c) => [c.i, c.inBeats])).toEqual([
    [4, 4],
    [6, 6],
  ]);
  expect(upcomingCues(vln, 4, 1)[0].inBeats).toBe(0);
  expect(upcomingCues(vln, 5, 5).map((c) => [c.i, c.inBeats])).toEqual([
    [6, 1],
    [12, 7],
  ]);
  expect(upcomingCues(vln, 13, 5)).toEqual([]);
  // The binary search agrees with a linear scan everywhere.
  for (let k = -1; k < 15; k += 1)
    expect(firstCueFrom(vln, k)).toBe(vln.findIndex((c) => c.i >= k) === -1 ? vln.length : vln.findIndex((c) => c.i >= k));
});

test('what a cue says: its label, else its arguments, else its address', () => {
  expect(cueText(cues[0])).toBe('A · pp');
  expect(cueText(cues[1])).toBe('breathe');
  expect(cueText(cues[2])).toBe('/vc/b');
});

test('click: accent on beat 1; count-in 1…beats on the bar before an entry', () => {
  const vln = cuesForPart(cues, 'vln');
  const kinds = [0, 1, 2, 3, 4, 5, 8, 9, 10, 11].map((index) => ({
    index,
    ...clickFor({ index, bar: Math.floor(index / 4) + 1, beat: (index % 4) + 1, beats: 4, at: 0 }, vln),
  }));
  expect(kinds.map((k) => [k.index, k.accent, k.countIn])).toEqual([
    [0, true, 1],
    [1, false, 2],
    [2, false, 3],
    [3, false, 4], // counting in to beat 4
    [4, true, 3],
    [5, false, 4], // beat 6 (cue to everyone) is 2 beats after beat 4
    [8, true, 1],
    [9, false, 2],
    [10, false, 3],
    [11, false, 4], // then in to beat 12
  ]);
});

test('beatsAhead: the beats after now within the horizon, on a ramp too, as the server times them', () => {
  const score = fourFourScore({ bars: 8, tempo: [{ at: { bar: 1, beat: 1 }, bpm: 60, to: 180, until: { bar: 5, beat: 1 } }] });
  const timeline = createTimeline(score);
  const segment = segmentAt(timeline, 0, 10_000, 1);
  const beats = beatsAhead(segment, 10_000 + 1, 2500);
  expect(beats[0].index).toBe(1);
  for (const b of beats) {
    expect(b.at).toBeGreaterThan(10_001);
    expect(b.at).toBeLessThanOrEqual(12_501);
    expect(b.at).toBeCloseTo(10_000 + timeline.msAt(b.index), 6);
  }
  expect(beats.at(-1).index).toBe(beats[0].index + beats.length - 1);
  // Before the anchor sounds, the anchor itself is the first beat ahead.
  expect(beatsAhead(segment, 9_900, 500)[0]).toEqual(beatInSegment(segment, 0));
});

test('sectionAt: the last mark starting at or before the beat', () => {
  const sections = [
    { i: 0, mark: 'A' },
    { i: 8, mark: 'B' },
  ];
  expect([-1, 0, 7, 8, 100].map((k) => sectionAt(sections, k)?.mark ?? null)).toEqual([null, 'A', 'A', 'B', 'B']);
});
