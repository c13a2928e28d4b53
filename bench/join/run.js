#!/usr/bin/env node
// `npm run bench:join`: a join storm (docs/results.md#how-fast-how-small). --phones phones arrive
// evenly within --window seconds at a real show server (bench/fanout/show-server.js:
// startShowServer with the built audience app, playing the load-test score), each doing the app's
// first visit (phones.js: page, hashed assets, lean WebSocket + GET /time, first state). Reports
// the time to first state p50 / p99, the server's CPU and the generators' (from /proc), and a probe
// phone in a process of its own: alone on the idle server before the storm (the baseline, same
// run) and arriving in the middle of the storm. All on 127.0.0.1, which the per-address limits
// exempt (docs/explanation/threat-model.md#exempt-means-exactly-127001-and-1); bounded in phones (≤ 5,000),
// window (≤ 60 s), runs (≤ 10) and time (every phone gives up after 60 s).
//
//   node bench/join/run.js [--phones 2000] [--window 10] [--runs 3] [--processes 2] [--out FILE]

import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { forkWorker } from '../lib/children.js';
import { parseFlags, runBench } from '../lib/cli.js';
import { readCpuSeconds } from '../lib/proc-stats.js';
import { median, percentile, round } from '../lib/stats.js';
import { recordTable, writeResults } from '../lib/results-file.js';

const SHOW_SERVER = fileURLToPath(new URL('../fanout/show-server.js', import.meta.url));
const PHONES = fileURLToPath(new URL('./phones.js', import.meta.url));
const LOAD_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/join.json', import.meta.url));
const TOKEN = randomBytes(18).toString('base64url');
/** Probe visits on the idle server before the storm (their median is the baseline). */
const ALONE_VISITS = 3;
/** Lead time between scheduling the storm and its first arrival (the IPC round trip). */
const LEAD_MS = 500;
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const USAGE = `npm run bench:join -- [--phones 2000] [--window 10] [--runs 3] [--processes 2] [--out FILE]
  --phones N      phones in the storm (1 … 5000)
  --window S      seconds over which they arrive, evenly (1 … 60)
  --runs N        runs on fresh servers (1 … 10); the table gives medians
  --processes N   generator processes (1 … 8)
  --out FILE      where the JSON goes (bench-results/join.json)
`;

/**
 * @param {string[]} argv
 * @returns {{ phones: number, window: number, runs: number, processes: number, out: string }}
 */
export function parseArgs(argv) {
  return /** @type {any} */ (
    parseFlags(argv, {
      usage: USAGE,
      defaults: { phones: 2000, window: 10, runs: 3, processes: 2, out: RESULTS },
      numbers: {
        '--phones': ['phones', 1, 5000],
        '--window': ['window', 1, 60],
        '--runs': ['runs', 1, 10],
        '--processes': ['processes', 1, 8],
      },
      others: { '--out': (value, options) => (options.out = value) },
    })
  );
}

/** p50 / p99 / max of one field of the phones' results (ms). */
function spread(phones, key) {
  const values = phones.map((p) => p[key]);
  return { p50: round(percentile(values, 50)), p99: round(percentile(values, 99)), max: round(values.length ? Math.max(...values) : NaN) };
}

/** One storm on a fresh server. */
async function runStorm(options, log) {
  const server = forkWorker(SHOW_SERVER, { name: 'show server', args: ['--score', LOAD_SCORE, `--token=${TOKEN}`, '--stream', 'lean'] });
  const generators = Array.from({ length: options.processes }, (_, i) => forkWorker(PHONES, { name: `phones ${i + 1}` }));
  const probe = forkWorker(PHONES, { name: 'probe phone' });
  try {
    const ready = await server.waitFor('ready', 60_000);
    const target = { audienceUrl: ready.audienceUrl, wsUrl: ready.wsUrl };
    // The baseline: the same phone, alone, on the same idle server (after one visit that warms
    // up the probe process itself).
    await probe.request('storm', { ...target, arrivals: [clock()] }, 90_000);
    const alone = [];
    for (let i = 0; i < ALONE_VISITS; i += 1) {
      const visit = await probe.request('storm', { ...target, arrivals: [clock()] }, 90_000);
      if (visit.phones.length !== 1) throw new Error(`the probe phone failed alone: ${JSON.stringify(visit.errors)}`);
      alone.push(visit.phones[0]);
    }
    // Evenly spaced arrivals, dealt round-robin so every generator covers the whole window.
    const windowMs = options.window * 1000;
    const start = clock() + LEAD_MS;
    const arrivals = Array.from({ length: options.processes }, () => /** @type {number[]} */ ([]));
    for (let i = 0; i < options.phones; i += 1) arrivals[i % options.processes].push(start + (i * windowMs) / options.phones);
    const cpu0 = { server: readCpuSeconds(server.pid), generators: generators.map((g) => readCpuSeconds(g.pid)) };
    const storm = Promise.all(generators.map((g, i) => g.request('storm', { ...target, arrivals: arrivals[i] }, windowMs + 120_000)));
    const during = probe.request('storm', { ...target, arrivals: [start + windowMs / 2] }, windowMs + 120_000);
    const [parts, probed] = await Promise.all([storm, during]);
    const elapsed = (clock() - start) / 1000;
    const cpu1 = { server: readCpuSeconds(server.pid), generators: generators.map((g) => readCpuSeconds(g.pid)) };
    const phones = parts.flatMap((p) => p.phones);
    const errors = {};
    for (const p of parts) for (const [message, n] of Object.entries(p.errors)) errors[message] = (errors[message] ?? 0) + n;
    const generatorCpu = cpu1.generators.reduce((a, c, i) => a + (c ?? 0) - (cpu0.generators[i] ?? 0), 0);
    const result = {
      phones: phones.length,
      failed: parts.reduce((a, p) => a + p.failed, 0),
      errors,
      elapsedSeconds: round(elapsed),
      first: spread(phones, 'first'),
      page: spread(phones, 'page'),
      assets: spread(phones, 'assets'),
      ws: spread(phones, 'ws'),
      bytesPerPhone: round(median(phones.map((p) => p.bytes)), 0),
      probeAlone: {
        first: round(median(alone.map((p) => p.first))),
        page: round(median(alone.map((p) => p.page))),
        assets: round(median(alone.map((p) => p.assets))),
        ws: round(median(alone.map((p) => p.ws))),
      },
      probeDuring: probed.phones[0]
        ? {
            first: round(probed.phones[0].first),
            page: round(probed.phones[0].page),
            assets: round(probed.phones[0].assets),
            ws: round(probed.phones[0].ws),
          }
        : null,
      serverCpuSeconds: cpu0.server !== null && cpu1.server !== null ? round(cpu1.server - cpu0.server) : null,
      generatorCpuSeconds: round(generatorCpu),
      load: os.loadavg()[0],
    };
    log(
      `  ${result.phones} phones (${result.failed} failed) in ${result.elapsedSeconds} s: first state p50 ${result.first.p50} / p99 ${result.first.p99} ms; ` +
        `probe alone ${result.probeAlone.first} ms, during the storm ${result.probeDuring?.first ?? 'failed'} ms; ` +
        `CPU server ${result.serverCpuSeconds} s, generators ${result.generatorCpuSeconds} s`,
    );
    return result;
  } finally {
    await Promise.all([...generators, probe].map((w) => w.stop()));
    await server.stop();
  }
}

/** The medians table (kept in `tables` for the results file) and the lines around it. */
function report(runs, options, loads, tables) {
  const m = (pick) => round(median(runs.map(pick)));
  const rows = [
    { what: 'time to first state, storm phones', p50: m((r) => r.first.p50), p99: m((r) => r.first.p99), max: m((r) => r.first.max) },
    { what: '  page (GET /)', p50: m((r) => r.page.p50), p99: m((r) => r.page.p99), max: m((r) => r.page.max) },
    { what: '  assets (CSS + JS)', p50: m((r) => r.assets.p50), p99: m((r) => r.assets.p99), max: m((r) => r.assets.max) },
    { what: '  WebSocket → snapshot', p50: m((r) => r.ws.p50), p99: m((r) => r.ws.p99), max: m((r) => r.ws.max) },
    { what: 'probe phone alone (baseline)', p50: m((r) => r.probeAlone.first) },
    {
      what: '  its page / assets / WebSocket',
      p50: m((r) => r.probeAlone.page),
      p99: m((r) => r.probeAlone.assets),
      max: m((r) => r.probeAlone.ws),
    },
    { what: 'probe phone mid-storm', p50: m((r) => r.probeDuring?.first) },
    {
      what: '  its page / assets / WebSocket',
      p50: m((r) => r.probeDuring?.page),
      p99: m((r) => r.probeDuring?.assets),
      max: m((r) => r.probeDuring?.ws),
    },
  ];
  const ms = (v) => (Number.isFinite(v) ? String(Math.round(v)) : '-');
  const title = `join storm: ${options.phones} phones within ${options.window} s, ms, medians of ${runs.length} run(s)`;
  const table = recordTable(
    tables,
    title,
    [
      { key: 'what', label: 'ms' },
      { key: 'p50', label: 'p50', format: ms },
      { key: 'p99', label: 'p99', format: ms },
      { key: 'max', label: 'max', format: ms },
    ],
    rows,
  );
  const cpu = `CPU during the storm (medians): server ${m((r) => r.serverCpuSeconds)} s, generators ${m((r) => r.generatorCpuSeconds)} s (${options.processes} processes)`;
  const failed = runs.reduce((a, r) => a + r.failed, 0);
  return `\njoin storm: ${options.phones} phones within ${options.window} s, medians of ${runs.length} run(s); load average ${loads[0].toFixed(1)} → ${loads[1].toFixed(1)}\n${table}\n(the probe's rows "its page / assets / WebSocket" give the three in the p50 / p99 / max columns)\n${cpu}; ${failed} phone(s) failed; ${m((r) => r.bytesPerPhone)} bytes of page and assets per phone\n`;
}

async function main(options, log) {
  const loadBefore = os.loadavg()[0];
  log(
    `bench:join — ${options.phones} phones within ${options.window} s, ${options.runs} run(s), ${options.processes} generator processes; ${os.cpus().length} CPUs, load ${loadBefore.toFixed(2)}`,
  );
  const runs = [];
  for (let run = 1; run <= options.runs; run += 1) {
    log(`run ${run}/${options.runs}`);
    runs.push(await runStorm(options, log));
    await sleep(1000);
  }
  const tables = [];
  process.stdout.write(report(runs, options, [loadBefore, os.loadavg()[0]], tables));
  writeResults(options.out, { script: 'bench:join', tables, data: { options, runs } });
  process.stdout.write(`every run: ${options.out}\n`);
}

await runBench({ name: 'bench:join', usage: USAGE, parse: parseArgs, main });
