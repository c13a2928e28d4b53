// Where a graphic score's playhead is (core/score/graphic-map.js): x linear in beats between marks,
// then to the strip's end at the piece's end; marks as beat indices across a meter change.
import { graphicStrips, stripForPart, stripXAt } from '#core/score/graphic-map.js';
import { partCueTable } from '#core/score/part-cues.js';
import { validateScore } from '#core/score/validate.js';

const { score } = validateScore({
  format: 'tutti-score/1',
  id: 'g',
  title: 'Drawn',
  bars: 4,
  meter: [
    { bar: 1, beats: 4, unit: 4 },
    { bar: 3, beats: 2, unit: 4 },
  ],
  tempo: [{ at: { bar: 1 }, bpm: 60 }],
  parts: [
    { id: 'vln', osc: '/vln' },
    { id: 'vc', osc: '/vc' },
  ],
  assets: [{ id: 'a', kind: 'image', src: 'graphic/a.svg' }],
  graphic: [
    {
      part: 'all',
      images: [{ asset: 'a', width: 1200, height: 300 }],
      marks: [
        { at: { bar: 1 }, x: 100 },
        { at: { bar: 3 }, x: 900 },
      ],
      end: 1100,
    },
    { part: 'vc', images: [{ asset: 'a', width: 1200, height: 300 }], marks: [{ at: { bar: 1 }, x: 0 }] },
  ],
});

test('marks become beat indices through the meter change; media URLs as the audience page uses them', () => {
  const [all] = graphicStrips(/** @type {any} */ (score));
  // bars 1-2 have 4 beats, bars 3-4 two: bar 3 starts at beat index 8, the piece has 12 beats.
  expect(all).toEqual({
    part: 'all',
    images: [{ url: 'media/graphic/a.svg', width: 1200, height: 300 }],
    height: 300,
    marks: [
      { i: 0, x: 100 },
      { i: 8, x: 900 },
    ],
    end: 1100,
    totalBeats: 12,
  });
});

test('x is linear in beats between marks, then runs to the end; clamped outside the piece', () => {
  const [all, vc] = graphicStrips(/** @type {any} */ (score));
  expect(stripXAt(all, -3)).toBe(100);
  expect(stripXAt(all, 0)).toBe(100);
  expect(stripXAt(all, 4)).toBe(500);
  expect(stripXAt(all, 8)).toBe(900);
  expect(stripXAt(all, 10)).toBe(1000);
  expect(stripXAt(all, 12)).toBe(1100);
  expect(stripXAt(all, 40)).toBe(1100);
  // One mark only: the whole piece spans the strip (end = its width).
  expect(stripXAt(vc, 6)).toBe(600);
});

test('a part follows its own strip, others the one for all', () => {
  const strips = graphicStrips(/** @type {any} */ (score));
  expect(stripForPart(strips, 'vc')?.part).toBe('vc');
  expect(stripForPart(strips, 'vln')?.part).toBe('all');
  expect(stripForPart(strips.slice(1), 'vln')).toBeNull();
});

test('the part pages get the strips in their cue table only when the score has them', () => {
  expect(partCueTable(score).graphic).toHaveLength(2);
  const plain = validateScore({ ...score, graphic: undefined }).score;
  expect(partCueTable(plain)).not.toHaveProperty('graphic');
});
