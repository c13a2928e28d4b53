#!/usr/bin/env node
// Byte sizes of the audience state for each sample score: the snapshot a viewer gets on join
// and the deltas it gets per change, from playing the whole piece on a simulated clock.
// Usage: npm run sizes [-- FILE...]   (prints a table, writes bench-results/state-sizes.json)

import { mkdir, writeFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadScoreFile } from '../local-server/index.js';
import { createShowEngine } from '#core/engine/engine.js';
import { createStateStream } from '#core/stream/state-stream.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Play a score start to end on a virtual clock; return snapshot and delta sizes. */
export function measureScore(score) {
  let time = 1_763_790_000_000;
  const timers = [];
  const stream = createStateStream({ epoch: 'sizes', state: {}, now: () => Math.round(time) });
  const deltas = [];
  let maxSnapshot = 0;
  const engine = createShowEngine({
    score,
    now: () => time,
    setTimer: (fn, ms) => timers.push({ at: time + ms, fn }),
    clearTimer: () => {},
    onState: (state) => {
      const update = stream.update(state);
      if (update) {
        deltas.push(Buffer.byteLength(update.json));
        maxSnapshot = Math.max(maxSnapshot, Buffer.byteLength(stream.snapshot().json));
      }
    },
  });
  stream.reset('sizes', engine.state());
  const first = Buffer.byteLength(stream.snapshot().json);
  engine.play();
  for (let guard = 0; timers.length && guard < 1_000_000; guard += 1) {
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift();
    time = Math.max(time, next.at);
    next.fn();
  }
  const sorted = [...deltas].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    snapshotBytes: first,
    maxSnapshotBytes: maxSnapshot,
    deltas: deltas.length,
    deltaMedianBytes: pick(0.5),
    deltaP95Bytes: pick(0.95),
    deltaMaxBytes: sorted.at(-1) ?? 0,
    totalDeltaBytes: deltas.reduce((a, b) => a + b, 0),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const files = args.length
    ? args
    : (await readdir(path.join(root, 'scores'))).filter((f) => f.endsWith('.score.json')).map((f) => path.join(root, 'scores', f));
  const rows = [];
  for (const file of files) {
    const loaded = await loadScoreFile(file);
    if (!loaded.ok) {
      process.stderr.write(`skipping ${file}: ${loaded.problems.length} problem(s) (run tutti validate)\n`);
      continue;
    }
    rows.push({ score: loaded.score.id, file: path.relative(root, file), ...measureScore(loaded.score) });
  }
  const header = ['score', 'snapshot B', 'max snapshot B', 'deltas', 'delta p50 B', 'delta p95 B', 'delta max B', 'snapshot/p50'];
  const table = rows.map((r) =>
    [
      r.score,
      r.snapshotBytes,
      r.maxSnapshotBytes,
      r.deltas,
      r.deltaMedianBytes,
      r.deltaP95Bytes,
      r.deltaMaxBytes,
      `${(r.maxSnapshotBytes / r.deltaMedianBytes).toFixed(0)}×`,
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  process.stdout.write(`${line(header)}\n${table.map(line).join('\n')}\n`);
  await mkdir(path.join(root, 'bench-results'), { recursive: true });
  const out = path.join(root, 'bench-results', 'state-sizes.json');
  await writeFile(out, JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2));
  process.stdout.write(`wrote ${path.relative(root, out)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
