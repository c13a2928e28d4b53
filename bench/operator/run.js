#!/usr/bin/env node
// `npm run bench:operator`: an operator's pause, seek, tempo change and a vote opening → the time
// until 50 / 99 / 100 % of the phones have APPLIED it (docs/results.md#how-fast-how-small). A real
// show server (bench/fanout/show-server.js: startShowServer, the load-test score with a prompt
// added) in its own process, phones in other processes (viewers.js: each parses, seq-checks and
// merges every envelope into its own state, as the app does), the action through the real control
// API. Each run measures the lean and the full stream at --viewers and, as the baseline in the
// same run, at --baseline viewers; the table gives medians of runs. All on 127.0.0.1, bounded in
// phones (≤ 10,000), runs (≤ 10) and time (every wait has a timeout).
//
//   node bench/operator/run.js [--viewers 5000] [--baseline 100] [--runs 3] [--streams lean,full]
//                              [--per-process 2500] [--out FILE]

import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { forkWorker } from '../lib/children.js';
import { runBench } from '../lib/cli.js';
import { readCpuSeconds } from '../lib/proc-stats.js';
import { median, percentile, round } from '../lib/stats.js';
import { printTable, writeResults } from '../lib/results-file.js';
import { OPERATOR_ACTIONS } from './actions.js';
import { removeOperatorScore, writeOperatorScore } from './score.js';
import { startShow } from './shows.js';
import { parseArgs, USAGE } from './options.js';

const VIEWERS = fileURLToPath(new URL('./viewers.js', import.meta.url));
const REPLAY_SERVER = fileURLToPath(new URL('./replay-server.js', import.meta.url));
const TOKEN = randomBytes(18).toString('base64url');
/** How long every phone may take to apply one action before the rest count as missing. */
const APPLY_TIMEOUT_MS = 10_000;
/** Pause between actions, so one action's fan-out never overlaps the next. */
const SETTLE_MS = 1500;
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST to the control API with the token; throws on an error status. */
async function control(controlUrl, { path, body }) {
  const res = await fetch(`${controlUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} ${JSON.stringify(body)}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** Fork the phone processes and connect `viewers` phones to `url`; the first process records. */
async function connectPhones({ url, viewers, options, label, log }) {
  const { perProcess, apply, inflate, deflate } = options;
  const processes = Math.ceil(viewers / perProcess);
  const workers = [];
  for (let i = 0; i < processes; i += 1) workers.push(forkWorker(VIEWERS, { name: `phones ${i + 1}` }));
  const share = (i) => Math.floor(viewers / processes) + (i < viewers % processes ? 1 : 0);
  const connects = await Promise.all(
    workers.map((w, i) => w.request('connect', { url, count: share(i), batch: 100, record: i === 0, apply, inflate, deflate }, 300_000)),
  );
  const connected = connects.reduce((a, c) => a + c.connected, 0);
  log(`${label}: ${connected} phones connected (${connects.reduce((a, c) => a + c.failed, 0)} failed)`);
  return { workers, connected };
}

/**
 * Arm every phone for one action, trigger it, wait until all have applied it (or the timeout).
 * @param {import('../lib/children.js').Worker[]} workers
 * @param {import('./actions.js').OperatorAction} action
 * @param {() => Promise<unknown>} trigger makes the action happen (control API, or the replay)
 */
async function measureAction(workers, action, trigger, log) {
  const arms = await Promise.all(workers.map((w) => w.request('arm', action.spec)));
  const already = arms.reduce((a, r) => a + r.already, 0);
  const t0 = clock();
  await trigger();
  const answered = clock() - t0;
  const waits = await Promise.all(workers.map((w) => w.request('wait', { timeoutMs: APPLY_TIMEOUT_MS }, APPLY_TIMEOUT_MS + 30_000)));
  const latencies = waits.flatMap((r) => r.appliedAt.map((t) => t - t0));
  const arrivals = waits.flatMap((r) => r.arrivedAt.map((t) => t - t0));
  const missing = waits.reduce((a, r) => a + r.missing, 0);
  const a = {
    applied: latencies.length,
    missing,
    already,
    triggerMs: round(answered),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    p100: round(latencies.length ? Math.max(...latencies) : NaN),
    // When the message that showed it reached the phone's process (before parsing it).
    arrivedFirst: round(arrivals.length ? Math.min(...arrivals) : NaN),
    arrivedP50: round(percentile(arrivals, 50)),
    arrivedP99: round(percentile(arrivals, 99)),
  };
  log(
    `  ${action.name.padEnd(10)} p50 ${a.p50} / p99 ${a.p99} / 100 % ${a.p100} ms; arrived first ${a.arrivedFirst} / p50 ${a.arrivedP50} / p99 ${a.arrivedP99}; ` +
      `trigger answered in ${a.triggerMs} ms (${a.applied} applied, ${missing} missing${already ? `, ${already} already showed it` : ''})`,
  );
  return a;
}

/**
 * Gaps and closes over the phone processes; said out loud when there are any (a phone closed
 * mid-case leaves the figures, so "0 missing" alone would hide it).
 */
async function phoneCounts(workers, label, log) {
  const all = await Promise.all(workers.map((w) => w.request('counts')));
  const counts = { gaps: all.reduce((a, c) => a + c.gaps, 0), closed: all.reduce((a, c) => a + c.closed, 0) };
  if (counts.gaps || counts.closed) log(`${label}: WARNING ${counts.closed} phones closed, ${counts.gaps} gaps during the case`);
  return counts;
}

/**
 * One case on the real server: a fresh show server, `viewers` phones on `stream`, every action
 * once through the control API. Returns the figures and what the recording phone received.
 */
async function runOurs({ stream, viewers, options, scorePath, log }) {
  const show = await startShow(options.target, { scorePath, token: TOKEN, stream, viewers, lookAheadDelay: options.lookAheadDelay });
  let workers = [];
  try {
    const phones = await connectPhones({ url: show.wsUrl, viewers, options, label: `${options.target} ${stream}:${viewers}`, log });
    workers = phones.workers;
    // The runner's first fetch sets up its HTTP client and connection (~40 ms here): not the server's time.
    await (await fetch(`${show.controlUrl}/api/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).arrayBuffer();
    await sleep(SETTLE_MS);
    const cpu0 = show.pid === null ? null : readCpuSeconds(show.pid);
    const actions = {};
    for (const action of OPERATOR_ACTIONS) {
      actions[action.name] = await measureAction(workers, action, () => control(show.controlUrl, action.request), log);
      for (const undo of action.undo) await control(show.controlUrl, undo);
      await sleep(SETTLE_MS);
    }
    const cpu1 = show.pid === null ? null : readCpuSeconds(show.pid);
    const recording = await workers[0].request('recording');
    return {
      impl: 'ours',
      target: options.target,
      stream,
      viewers,
      connected: phones.connected,
      actions,
      ...(await phoneCounts(workers, `${options.target} ${stream}:${viewers}`, log)),
      serverCpuSeconds: cpu0 !== null && cpu1 !== null ? round(cpu1 - cpu0) : null,
      recording,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await show.stop();
  }
}

/**
 * The baseline: the naive ws loop (replay-server.js) sending the envelopes the recording phone of
 * `ours` received, to the same number of the same phones.
 */
async function runReplay({ stream, viewers, options, recording, log }) {
  const server = forkWorker(REPLAY_SERVER, { name: 'replay server' });
  let workers = [];
  try {
    const ready = await server.waitFor('ready', 60_000);
    await server.request('load', recording);
    const phones = await connectPhones({ url: ready.wsUrl, viewers, options, label: `naive ${stream}:${viewers}`, log });
    workers = phones.workers;
    await sleep(SETTLE_MS);
    const actions = {};
    for (const [k, action] of OPERATOR_ACTIONS.entries()) {
      await server.request('before', k);
      await sleep(SETTLE_MS);
      actions[action.name] = await measureAction(workers, action, () => server.request('action', k), log);
    }
    return {
      impl: 'naive',
      stream,
      viewers,
      connected: phones.connected,
      actions,
      ...(await phoneCounts(workers, `naive ${stream}:${viewers}`, log)),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await server.stop();
  }
}

/** Medians over runs per stream and action: ours and the naive replay at --viewers, ours at --baseline. */
function summarize(runs, options) {
  const rows = [];
  for (const stream of options.streams) {
    for (const action of OPERATOR_ACTIONS) {
      const casesOf = (impl, viewers) =>
        runs.flatMap((run) => run.cases.filter((c) => c.impl === impl && c.stream === stream && c.viewers === viewers));
      const pick = (impl, viewers, key) => median(casesOf(impl, viewers).map((c) => c.actions[action.name]?.[key]));
      const row = {
        case: `${stream}, ${action.name}`,
        p50: pick('ours', options.viewers, 'p50'),
        p99: pick('ours', options.viewers, 'p99'),
        p100: pick('ours', options.viewers, 'p100'),
        missing: casesOf('ours', options.viewers).reduce((a, c) => a + c.actions[action.name].missing, 0),
        naiveP50: pick('naive', options.viewers, 'p50'),
        naiveP99: pick('naive', options.viewers, 'p99'),
        smallP99: pick('ours', options.baseline, 'p99'),
      };
      row.ratio = row.p99 / row.naiveP99;
      rows.push(row);
    }
  }
  return rows;
}

/** The table's columns: ours beside the naive replay (same bytes, same phones, same run) and beside a small hall. */
function tableColumns(options) {
  const ms = (v) => (Number.isFinite(v) ? String(Math.round(v)) : '-');
  const columns = [
    { key: 'case', label: 'stream, action' },
    { key: 'p50', label: 'p50', format: ms },
    { key: 'p99', label: 'p99', format: ms },
    { key: 'p100', label: '100 %', format: ms },
    { key: 'missing', label: 'missing' },
    { key: 'naiveP50', label: 'naive p50', format: ms },
    { key: 'naiveP99', label: 'naive p99', format: ms },
    { key: 'ratio', label: 'p99 / naive', format: (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-') },
  ];
  if (options.baseline > 0) columns.push({ key: 'smallP99', label: `p99 @${options.baseline}`, format: ms });
  return columns;
}

async function main(options, log) {
  const scorePath = writeOperatorScore();
  try {
    await measureAll(options, scorePath, log);
  } finally {
    removeOperatorScore(scorePath);
  }
}

/** Every run, the table and the JSON. */
async function measureAll(options, scorePath, log) {
  const loadBefore = os.loadavg()[0];
  log(
    `bench:operator — ${options.target}, ${options.streams.join(' and ')} stream, ${options.viewers} phones (baseline ${options.baseline}), ${options.runs} run(s); ${os.cpus().length} CPUs, load ${loadBefore.toFixed(2)}`,
  );
  const runs = [];
  for (let run = 1; run <= options.runs; run += 1) {
    const cases = [];
    for (const stream of options.streams) {
      log(`run ${run}/${options.runs}: ${stream} stream, ${options.viewers} phones`);
      const { recording, ...ours } = await runOurs({ stream, viewers: options.viewers, options, scorePath, log });
      cases.push(ours);
      log(`run ${run}/${options.runs}: naive replay of the ${stream} stream, ${options.viewers} phones`);
      cases.push(await runReplay({ stream, viewers: options.viewers, options, recording, log }));
      if (options.baseline > 0) {
        log(`run ${run}/${options.runs}: ${stream} stream, ${options.baseline} phones`);
        const small = await runOurs({ stream, viewers: options.baseline, options, scorePath, log });
        delete small.recording;
        cases.push(small);
      }
    }
    runs.push({ run, cases, load: os.loadavg() });
  }
  const rows = summarize(runs, options);
  const loadAfter = os.loadavg()[0];
  const tables = [];
  printTable(
    tables,
    `operator action → applied on ${options.viewers} phones of the ${options.target}${options.deflate === 'none' ? ' offering no permessage-deflate' : ''} (ms from the request, medians of ${options.runs} run(s); load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)})`,
    tableColumns(options),
    rows,
  );
  writeResults(options.out, { script: 'bench:operator', tables, data: { options, rows, runs } });
  process.stdout.write(`every run: ${options.out}\n`);
}

await runBench({ name: 'bench:operator', usage: USAGE, parse: parseArgs, main });
