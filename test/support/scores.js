// Small normalized scores for unit tests (the shape validateScore returns).

export function fourFourScore({ bars = 8, bpm = 120, ...rest } = {}) {
  return {
    format: 'tutti-score/1',
    id: 'unit',
    title: 'Unit',
    bars,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1, beat: 1 }, bpm }],
    sections: [],
    parts: [],
    assets: [],
    cues: [],
    ...rest,
  };
}
