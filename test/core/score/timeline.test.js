import { createTimeline } from '#core/score/timeline.js';
import { fourFourScore } from '../../support/scores.js';

describe('timeline', () => {
  test('constant tempo: beat k starts at k × 60000/bpm', () => {
    const t = createTimeline(fourFourScore({ bars: 10, bpm: 120 }));
    expect(t.totalBeats).toBe(40);
    expect(t.msAt(0)).toBe(0);
    expect(t.msAt(4)).toBe(2000);
    expect(t.msAt(39.5)).toBeCloseTo(19750, 9);
    expect(t.indexAtMs(19750)).toBeCloseTo(39.5, 9);
    expect(t.positionOf(5)).toEqual({ bar: 2, beat: 2, beats: 4 });
    expect(t.indexOf(3, 1)).toBe(8);
  });

  test('meter changes set the beats per bar', () => {
    const t = createTimeline(
      fourFourScore({
        bars: 6,
        meter: [
          { bar: 1, beats: 4, unit: 4 },
          { bar: 3, beats: 3, unit: 4 },
          { bar: 5, beats: 7, unit: 8 },
        ],
      }),
    );
    expect([1, 2, 3, 4, 5, 6].map((b) => t.beatsInBar(b))).toEqual([4, 4, 3, 3, 7, 7]);
    expect(t.totalBeats).toBe(4 + 4 + 3 + 3 + 7 + 7);
    expect(t.positionOf(t.indexOf(5, 6))).toEqual({ bar: 5, beat: 6, beats: 7 });
  });

  test('a gradual change is linear per beat and holds "to" afterwards', () => {
    const t = createTimeline(
      fourFourScore({
        bars: 4,
        tempo: [{ at: { bar: 1, beat: 1 }, bpm: 60, to: 120, until: { bar: 2, beat: 1 } }],
      }),
    );
    expect([0, 1, 2, 3, 4, 5].map((k) => t.bpmAt(k))).toEqual([60, 75, 90, 105, 120, 120]);
    expect(t.msAt(4)).toBeCloseTo(1000 + 800 + 60000 / 90 + 60000 / 105, 9);
  });

  test('indexAtMs inverts msAt everywhere, including ramps', () => {
    const t = createTimeline(
      fourFourScore({
        bars: 30,
        tempo: [
          { at: { bar: 1, beat: 1 }, bpm: 72 },
          { at: { bar: 5, beat: 3 }, bpm: 72, to: 160, until: { bar: 20, beat: 1 } },
        ],
      }),
    );
    for (let x = 0; x < t.totalBeats; x += 0.37) expect(t.indexAtMs(t.msAt(x))).toBeCloseTo(x, 9);
  });
});
