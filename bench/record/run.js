#!/usr/bin/env node
// `npm run bench:record` (README.md, "The performance record"): a simulated 2-hour show — the
// real show (engine, state stream, hub) and the real recorder on a simulated clock, the demo score
// played over and over with an operator's tempo change, seek or pause every few minutes and a
// sample every 5 s — then the record's size on disk beside the raw envelope bytes it holds, and
// the time `tutti report` takes to render it beside reading and parsing the same lines (median
// of --runs). Prints a table, writes bench-results/record.json.
//   npm run bench:record [-- --hours 2 --runs 5]

import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkFiles, reportHtml } from '../../local-server/index.js';
import { simulateShow } from './simulated-show.js';
import { formatTable } from '../lib/table.js';
import { median } from '../lib/stats.js';

const { values } = parseArgs({ options: { hours: { type: 'string', default: '2' }, runs: { type: 'string', default: '5' } } });
const hours = Number(values.hours);
const runs = Number(values.runs);
if (!(hours > 0 && hours <= 12) || !Number.isInteger(runs) || runs < 1 || runs > 50) {
  process.stderr.write('bench:record: --hours is 0–12 (default 2), --runs 1–50 (default 5)\n');
  process.exit(2);
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tutti-bench-record-'));
try {
  const t0 = performance.now();
  const { dir, rawEnvelopeBytes } = await simulateShow(tmp, hours);
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
  };
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  process.stdout.write(
    `Simulated ${hours} h show (demo score, an operator action every few minutes, a sample every 5 s) in ${(simulateMs / 1000).toFixed(1)} s\n\n`,
  );
  process.stdout.write(
    `${formatTable(
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
      ],
    )}\n\n${JSON.stringify(result)}\n`,
  );
  mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(
    path.join(ROOT, 'bench-results', 'record.json'),
    `${JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2)}\n`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
