#!/usr/bin/env node
// `npm run bench:seek`: what a seek costs on a generated many-cue score (issue 11: seeks used to
// replay every cue from the start). Prints load time and seek time per cue count; writes
// bench-results/seek.json.
//   npm run bench:seek [-- --cues 1000,10000,100000 --seeks 1000]

import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createShowEngine } from '#core/engine/engine.js';
import { createSeededRandom } from '#core/util/seeded-random.js';
import { manyCuesScore } from '../../test/support/many-cues-score.js';
import { printTable, writeResults } from '../lib/results-file.js';

const RESULTS = fileURLToPath(new URL('../../bench-results/seek.json', import.meta.url));

const { values } = parseArgs({
  options: { cues: { type: 'string', default: '1000,10000,100000' }, seeks: { type: 'string', default: '1000' } },
});
const seeks = Number(values.seeks);
const counts = values.cues.split(',').map(Number);
if (!Number.isInteger(seeks) || seeks < 1 || seeks > 100_000 || counts.some((n) => !Number.isInteger(n) || n < 1 || n > 100_000)) {
  process.stderr.write('bench:seek: --cues is a list of 1..100000, --seeks 1..100000\n');
  process.exit(2);
}

const rows = [];
for (const cues of counts) {
  const score = manyCuesScore({ cues });
  let time = 1_700_000_000_000;
  const t0 = performance.now();
  const engine = createShowEngine({ score, now: () => time, setTimer: () => null, clearTimer: () => {} });
  const loadMs = performance.now() - t0;
  engine.play();
  const random = createSeededRandom(3);
  const batches = [];
  for (let b = 0; b < 5; b += 1) {
    const s = performance.now();
    for (let k = 0; k < seeks; k += 1) {
      time += 1;
      engine.seek(1 + Math.floor(random() * score.bars), 1 + Math.floor(random() * 4));
    }
    batches.push(performance.now() - s);
  }
  engine.dispose();
  batches.sort((a, b) => a - b);
  const total = batches[2];
  rows.push({ cues, loadMs: Math.round(loadMs), seeks, totalMs: Math.round(total), usPerSeek: Math.round((total * 1000) / seeks) });
}
const tables = [];
printTable(
  tables,
  'seek cost on a generated many-cue score (median of 5 batches)',
  [
    { key: 'cues', label: 'cues' },
    { key: 'loadMs', label: 'load ms' },
    { key: 'seeks', label: 'seeks' },
    { key: 'totalMs', label: 'total ms' },
    { key: 'usPerSeek', label: 'µs/seek' },
  ],
  rows,
);
writeResults(RESULTS, { script: 'bench:seek', tables, data: { rows } });
