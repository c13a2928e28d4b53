// The musicians' cue table (core/score/part-cues.js): beat indices through meter changes, the
// part's OSC prefix, cues to everyone, labels, order.
import { partCueTable } from '#core/score/part-cues.js';
import { validateScore } from '#core/score/validate.js';
import { createTimeline } from '#core/score/timeline.js';

const score = validateScore({
  format: 'tutti-score/1',
  id: 'p',
  title: 'Parts',
  bars: 6,
  meter: [
    { bar: 1, beats: 4, unit: 4 },
    { bar: 3, beats: 3, unit: 4 },
  ],
  tempo: [{ at: { bar: 1 }, bpm: 100 }],
  sections: [
    { at: { bar: 1 }, mark: 'A', name: 'One' },
    { at: { bar: 4, beat: 2 }, mark: 'B' },
  ],
  parts: [
    { id: 'vln', name: 'Violin', osc: '/vln' },
    { id: 'vc', osc: '/vc' },
  ],
  cues: [
    { at: { bar: 4, beat: 2 }, osc: { part: 'vln', address: '/cue', args: ['C', 2] } },
    { at: { bar: 1 }, view: { text: 'not for musicians' } },
    { at: { bar: 3 }, label: 'all breathe', osc: { address: '/all', args: [] } },
    { at: { bar: 2, beat: 4 }, osc: { part: 'vc', address: '/cue', args: ['B', true] } },
  ],
}).score;

test('every OSC cue with its beat index, prefixed address, part (null for everyone) and label, in beat order', () => {
  const table = partCueTable(score);
  const timeline = createTimeline(score);
  expect(table.score).toEqual({ id: 'p', title: 'Parts', bars: 6, totalBeats: timeline.totalBeats, notation: false });
  expect(table.parts).toEqual([
    { id: 'vln', name: 'Violin', osc: '/vln' },
    { id: 'vc', name: 'vc', osc: '/vc' },
  ]);
  expect(table.cues).toEqual([
    { i: 7, bar: 2, beat: 4, part: 'vc', address: '/vc/cue', args: ['B', true] },
    { i: 8, bar: 3, beat: 1, part: null, address: '/all', args: [], label: 'all breathe' },
    // bar 3 is 3/4: bar 4 beat 2 is 4 + 4 + 3 + 1 = beat index 12
    { i: 12, bar: 4, beat: 2, part: 'vln', address: '/vln/cue', args: ['C', 2] },
  ]);
  for (const c of table.cues) expect(c.i).toBe(timeline.indexOf(c.bar, c.beat));
  expect(table.sections).toEqual([
    { i: 0, bar: 1, mark: 'A', name: 'One' },
    { i: 12, bar: 4, mark: 'B' },
  ]);
});
