#!/usr/bin/env node
// `npm run bench:record` (docs/how-to/record-and-replay.md#the-performance-record): a simulated 2-hour show — the
// real show (engine, state stream, hub) and the real recorder on a simulated clock, the demo score
// played over and over with an operator's tempo change, seek or pause every few minutes and a
// sample every 5 s — then the record's size on disk beside the raw envelope bytes it holds, and
// the time `tutti report` takes to render it beside reading and parsing the same lines (median
// of --runs), and what making it durable costs: appends through the real writer with its fsync
// policy against the same writer whose fsync does nothing (append-cost.js, medians of the runs).
// Prints a table, writes bench-results/record.json.
//   npm run bench:record [-- --hours 2 --runs 5]

import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkFiles, reportHtml } from '../../local-server/index.js';
import { simulateShow } from './simulated-show.js';
import { appendCost } from './append-cost.js';
import { printTable, writeResults } from '../lib/results-file.js';
import { median } from '../lib/stats.js';

const { values } = parseArgs({ options: { hours: { type: 'string', default: '2' }, runs: { type: 'string', default: '5' } } });
const hours = Number(values.hours);
const runs = Number(values.runs);
if (!(hours > 0 && hours <= 12) || !Number.isInteger(runs) || runs < 1 || runs > 50) {
  process.stderr.write('bench:record: --hours is 0–12 (default 2), --runs 1–50 (default 5)\n');
  process.exit(2);
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The append benchmark: ~40,000 lines (4 chunk rotations), paced a few lines per event-loop turn. */
const APPEND = { turns: 20_000, perTurn: 2, actionEvery: 400, syncMs: 2000 };

/** The append benchmark with the real fsync and with a no-op one, alternating, medians of `runs` (at most 3). */
async function durabilityCost(runs) {
  const real = [];
  const none = [];
  for (let i = 0; i < Math.min(3, runs); i += 1) {
    real.push(await appendCost(APPEND));
    none.push(await appendCost({ ...APPEND, fsync: async () => {} }));
  }
  const med = (list, key) => Math.round(median(list.map((r) => r[key])));
  return {
    appendP50Us: med(real, 'p50Us'),
    appendP99Us: med(real, 'p99Us'),
    appendMaxUs: med(real, 'maxUs'),
    appendFsyncs: med(real, 'syncs'),
    appendWallMs: med(real, 'wallMs'),
    noSyncP50Us: med(none, 'p50Us'),
    noSyncP99Us: med(none, 'p99Us'),
    noSyncMaxUs: med(none, 'maxUs'),
    noSyncWallMs: med(none, 'wallMs'),
  };
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tutti-bench-record-'));
try {
  const t0 = performance.now();
  const { dir, rawEnvelopeBytes, syncs } = await simulateShow(tmp, hours);
  const simulateMs = performance.now() - t0;
  const chunks = chunkFiles(dir);
  const diskBytes = chunks.reduce((sum, c) => sum + readFileSync(c.file).length, 0);
  const lines = chunks.map((c) => gunzipSync(readFileSync(c.file)).toString('utf8')).join('');
  const reportMs = [];
  const parseMs = [];
  let html = '';
  let story;
  for (let i = 0; i < runs; i += 1) {
    let s = performance.now();
    ({ html, story } = reportHtml(dir));
    reportMs.push(performance.now() - s);
    s = performance.now();
    const all = chunks
      .map((c) => gunzipSync(readFileSync(c.file)).toString('utf8'))
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    parseMs.push(performance.now() - s);
    if (!all.length) throw new Error('empty record');
  }
  const result = {
    hours,
    runs,
    envelopes: story.envelopes,
    actions: story.actions.length,
    samples: story.samples.length,
    chunks: chunks.length,
    recordBytesOnDisk: diskBytes,
    recordJsonBytes: Buffer.byteLength(lines),
    rawEnvelopeBytes,
    compression: Number((Buffer.byteLength(lines) / diskBytes).toFixed(1)),
    reportMsMedian: Number(median(reportMs).toFixed(1)),
    readAndParseMsMedian: Number(median(parseMs).toFixed(1)),
    reportHtmlBytes: Buffer.byteLength(html),
    simulateMs: Math.round(simulateMs),
    simulatedShowFsyncs: syncs,
    ...(await durabilityCost(runs)),
  };
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  process.stdout.write(
    `Simulated ${hours} h show (demo score, an operator action every few minutes, a sample every 5 s) in ${(simulateMs / 1000).toFixed(1)} s\n\n`,
  );
  const tables = [];
  printTable(
    tables,
    `what a ${hours} h show's record costs, and its baseline from the same run`,
    [
      { key: 'what', label: 'what' },
      { key: 'value', label: 'value' },
      { key: 'baseline', label: 'baseline (same run)' },
    ],
    [
      {
        what: 'record on disk (gzipped chunks)',
        value: kb(diskBytes),
        baseline: `${kb(rawEnvelopeBytes)} raw envelope JSON; ${kb(result.recordJsonBytes)} of record lines (${result.compression}x)`,
      },
      { what: 'envelopes / actions / samples', value: `${result.envelopes} / ${result.actions} / ${result.samples}`, baseline: '' },
      {
        what: `tutti report, median of ${runs}`,
        value: `${result.reportMsMedian} ms`,
        baseline: `${result.readAndParseMsMedian} ms to gunzip + JSON.parse the same lines`,
      },
      { what: 'report HTML', value: kb(result.reportHtmlBytes), baseline: '' },
      {
        what: `appends: event loop held per turn, p50 / p99 / max (${APPEND.turns} turns × ${APPEND.perTurn} lines, an action every ${APPEND.actionEvery})`,
        value: `${result.appendP50Us} / ${result.appendP99Us} / ${result.appendMaxUs} µs with fsync (${result.appendFsyncs} fsyncs)`,
        baseline: `${result.noSyncP50Us} / ${result.noSyncP99Us} / ${result.noSyncMaxUs} µs with a no-op fsync`,
      },
      {
        what: 'fsyncs in the simulated show',
        value: `${result.simulatedShowFsyncs}`,
        baseline: `${result.actions} actions (2 h in a few s: the actions' syncs coalesce, and the 2-s timer never fires)`,
      },
    ],
  );
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
  writeResults(path.join(ROOT, 'bench-results', 'record.json'), { script: 'bench:record', tables, data: result });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
