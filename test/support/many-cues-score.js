// A generated, already-normalized score with many view cues on a tile grid (the shape of the
// load-test score, scaled up): what issue 11's seek stall was measured on. Shared by the seek
// test and `npm run bench:seek`.

import { createSeededRandom } from '#core/util/seeded-random.js';

/**
 * @param {{ cues?: number, bars?: number, tiles?: number, seed?: number }} [options]
 */
export function manyCuesScore({ cues = 100_000, bars = 10_000, tiles = 360, seed = 11 } = {}) {
  const random = createSeededRandom(seed);
  const id = (n) => `t${String(n).padStart(3, '0')}`;
  const grid = {};
  for (let n = 0; n < tiles; n += 1) grid[id(n)] = { c: '#000000', s: 0 };
  const list = [];
  for (let n = 0; n < cues; n += 1) {
    const beat = Math.floor((n * bars * 4) / cues);
    const changed = {};
    for (let k = 0; k < 4; k += 1)
      changed[id(Math.floor(random() * tiles))] = {
        c: `#${Math.floor(random() * 0xffffff)
          .toString(16)
          .padStart(6, '0')}`,
        s: k,
      };
    list.push({ at: { bar: Math.floor(beat / 4) + 1, beat: (beat % 4) + 1 }, view: { data: { tiles: changed, round: n } } });
  }
  return {
    format: 'tutti-score/1',
    id: 'many-cues',
    title: 'Many cues',
    bars,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1, beat: 1 }, bpm: 120 }],
    sections: [],
    parts: [],
    assets: [],
    view: { text: 'grid', data: { tiles: grid } },
    cues: list,
  };
}
