// Generates scores/union-rose-load.score.json: a load-test score shaped like ZScore's Union Rose
// test (RESEARCH.md): an audience snapshot of about 18 KB, a view update every other beat that
// changes only a few tiles (so deltas stay small), and about 1.9 MB of media for the first load.
//
//   npx node scores/tools/generate-load-score.js          write the score
//   npx node scores/tools/generate-load-score.js --check  exit 1 if the committed file differs

import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mediaEntry } from './generate-media.js';
import { createSeededRandom } from '#core/util/seeded-random.js';

const SCORES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LOAD_SCORE_PATH = join(SCORES_DIR, 'union-rose-load.score.json');

const BARS = 128; // 128 bars of 4/4 at 120 bpm = 4 min 16 s: room for 2-minute runs from any start
const COLUMNS = 15;
const ROWS = 24; // 360 tiles
const TILES_PER_CUE = 4;
const PALETTE = ['#2b0f1e', '#4a1030', '#6d1a45', '#93265a', '#b8386b', '#d9567f', '#ee8aa2', '#f6bfcb', '#3c2a4d', '#1b0f1f'];

const tileId = (n) => `t${String(n).padStart(3, '0')}`;

/**
 * The load-test score as an object.
 * @returns {Record<string, unknown>}
 */
export function buildLoadScore() {
  const random = createSeededRandom(0x0e05e);
  const pick = (items) => items[Math.floor(random() * items.length)];

  const tiles = {};
  for (let n = 0; n < COLUMNS * ROWS; n++) {
    tiles[tileId(n)] = { c: pick(PALETTE), s: 0, x: n % COLUMNS, y: Math.floor(n / COLUMNS), r: 90 * Math.floor(random() * 4) };
  }

  const media = ['rose-drone', 'rose-swell', 'rose-chime-1', 'rose-chime-2', 'rose-chime-3'].map((name) => {
    const entry = mediaEntry(`media/union-rose/${name}.wav`);
    return { id: name, kind: entry.kind, src: entry.path, bytes: entry.bytes };
  });

  const sections = [];
  for (let k = 0; k < BARS / 16; k++) sections.push({ at: { bar: 1 + k * 16 }, mark: `R${k + 1}`, name: `Petal ${k + 1}` });

  const cues = [];
  for (let bar = 1; bar <= BARS; bar++) {
    for (const beat of [1, 3]) {
      const patch = {};
      for (let i = 0; i < TILES_PER_CUE; i++) {
        patch[tileId(Math.floor(random() * COLUMNS * ROWS))] = { c: pick(PALETTE), s: 1 + Math.floor(random() * 3) };
      }
      const view = beat === 1 && (bar - 1) % 16 === 0 ? { text: `Union Rose — petal ${(bar - 1) / 16 + 1}`, color: pick(PALETTE) } : {};
      view.data = { tiles: patch, round: (bar - 1) * 2 + (beat === 3 ? 1 : 0) };
      cues.push({ at: { bar, beat }, view });
    }
  }
  cues.push({ at: { bar: 1 }, audio: { asset: 'rose-drone', gain: 0.8 } });
  for (const bar of [33, 97]) cues.push({ at: { bar }, audio: { asset: 'rose-swell' } });
  [17, 49, 65, 81, 113].forEach((bar, k) => cues.push({ at: { bar, beat: 3 }, audio: { asset: `rose-chime-${(k % 3) + 1}`, gain: 0.9 } }));

  return {
    $schema: './score.schema.json',
    format: 'tutti-score/1',
    id: 'union-rose-load',
    title: 'Union Rose (load test)',
    composer: 'Tutti test suite, after the shape of ZScore’s Union Rose load test',
    bars: BARS,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 120 }],
    sections,
    assets: media,
    view: { text: 'Union Rose', instruction: 'Load test: keep this page open.', color: '#1b0f1f', data: { tiles, round: 0 } },
    cues,
  };
}

/**
 * JSON laid out for reading: a value that fits in `width` columns stays on one line, anything
 * bigger opens up one member per line (so a tile or a cue is one line). Ends with a newline.
 * @param {unknown} value
 * @param {number} [width]
 * @returns {string}
 */
export function formatScoreJson(value, width = 200) {
  const render = (v, indent) => {
    const flat = JSON.stringify(v);
    if (flat === undefined || typeof v !== 'object' || v === null || indent.length + flat.length <= width) return flat;
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((item) => inner + render(item, inner)).join(',\n')}\n${indent}]`;
    }
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${render(v[k], inner)}`).join(',\n')}\n${indent}}`;
  };
  return `${render(value, '')}\n`;
}

async function main(check) {
  const text = formatScoreJson(buildLoadScore());
  if (check) {
    const current = await readFile(LOAD_SCORE_PATH, 'utf8').catch(() => '');
    const same = current === text;
    console.log(
      same ? 'union-rose-load.score.json matches' : 'union-rose-load.score.json differs; run scores/tools/generate-load-score.js',
    );
    process.exitCode = same ? 0 : 1;
    return;
  }
  await writeFile(LOAD_SCORE_PATH, text);
  const score = JSON.parse(text);
  console.log(`wrote scores/union-rose-load.score.json (${text.length} bytes, ${score.cues.length} cues)`);
  console.log(
    `initial view: ${JSON.stringify(score.view).length} bytes as JSON; media: ${score.assets.reduce((n, a) => n + a.bytes, 0)} bytes`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.includes('--check')).catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
