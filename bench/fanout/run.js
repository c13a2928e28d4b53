#!/usr/bin/env node
// `npm run bench:fanout`: push latency, fan-out time, server RSS and bytes per viewer for the
// real show server against a naive ws baseline, at several numbers of viewers, all on
// 127.0.0.1. Runs of ours and the baseline alternate so machine noise hits both. Prints one
// line per phase, then a table of medians; writes every run to bench-results/fanout.json.
// `node bench/fanout/run.js --help` lists the flags.

import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parsePlan, USAGE, ROOT } from './args.js';
import { runCase } from './run-case.js';
import { summarizeRuns, ratios, evaluateTargets, formatReport } from './report.js';
import { killAllChildren } from '../lib/children.js';
import { writeResults } from '../lib/results-file.js';

const { plan, problems } = parsePlan(process.argv.slice(2));
if (plan?.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (plan?.fromJson) {
  // Re-print the report of an earlier run (e.g. after changing how it is summarized).
  const saved = JSON.parse(readFileSync(plan.fromJson, 'utf8'));
  const summary = summarizeRuns(saved.runs);
  const ratioList = ratios(summary);
  process.stdout.write(`${formatReport(summary, ratioList, evaluateTargets(summary, ratioList))}\n`);
  process.exit(0);
}
if (!plan || problems.length) {
  process.stderr.write(`bench:fanout: ${problems.join('\n  ')}\n\n${USAGE}`);
  process.exit(2);
}

process.on('uncaughtException', (error) => {
  process.stderr.write(`bench:fanout: ${error?.stack ?? error}\n`);
  killAllChildren();
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  process.stderr.write(`bench:fanout: ${/** @type {any} */ (error)?.stack ?? error}\n`);
  killAllChildren();
  process.exit(1);
});

const t0 = performance.now();
const log = (msg) => process.stdout.write(`[${String(Math.round((performance.now() - t0) / 1000)).padStart(5)} s] ${msg}\n`);

const gitCommit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
})();

const totalRuns = plan.cases.reduce((a, c) => a + c.runs * c.impls.length, 0);
log(
  `bench:fanout — ${plan.cases.map((c) => `${c.label}×${c.runs}${c.impls.length > 1 ? `(${c.impls.join('/')})` : ''}`).join(', ')}; ` +
    `window ${plan.duration} s; ${totalRuns} runs; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}`,
);

const results = [];
/** Runs repeated because other processes disturbed them (kept in the JSON, not in the medians). */
const disturbed = [];
let n = 0;
for (const kase of plan.cases) {
  for (let run = 1; run <= kase.runs; run++) {
    // Alternate which implementation goes first, so drift in machine load hits both.
    const order = run % 2 === 1 ? kase.impls : [...kase.impls].reverse();
    for (const impl of order) {
      n += 1;
      log(
        `[${n}/${totalRuns}] ${kase.label} ${impl} run ${run}/${kase.runs}: starting (${kase.clients} clients, ${kase.duration} s window)`,
      );
      let result = await runCase({ kase, impl, run, plan, log });
      // This machine is shared: a run that other processes disturbed is repeated (and kept aside).
      for (let retry = 1; retry <= plan.busyRetries && result.ok && result.cpu.otherProcessesPct > plan.maxOtherCpuPct; retry++) {
        log(
          `${kase.label} ${impl} #${run}: other processes used ${result.cpu.otherProcessesPct}% of a core during the window; repeating (${retry}/${plan.busyRetries})`,
        );
        disturbed.push({ ...result, disturbed: true });
        result = await runCase({ kase, impl, run, plan, log });
      }
      if (result.ok) result.disturbed = result.cpu.otherProcessesPct > plan.maxOtherCpuPct;
      results.push(result);
    }
  }
}

const summary = summarizeRuns(results);
const ratioList = ratios(summary);
const targets = evaluateTargets(summary, ratioList);
const tables = [];
const table = formatReport(summary, ratioList, targets, tables);
process.stdout.write(`\n${table}\n`);

const output = {
  meta: {
    date: new Date().toISOString(),
    commit: gitCommit,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryMb: Math.round(os.totalmem() / 1048576),
    loadavgAtEnd: os.loadavg(),
    argv: process.argv.slice(2),
    plan: { ...plan, maxRssMb: plan.maxRssBytes / 1048576 },
    elapsedSeconds: Math.round((performance.now() - t0) / 1000),
    notes: [
      'latency = receive time − envelope t, corrected by a per-client-process clock offset measured with GET /time (best of 15)',
      'naive = plain ws WebSocketServer, default options (permessage-deflate off), JSON.stringify of the whole state once per update, ws.send(string) per client',
      "naive-delta = same loop but sending the real server's delta envelopes",
      'fan-out (ours) = time inside hub.broadcast; (naive) = time of the ws.send loop',
      'RSS = VmRSS of the server process (/proc), peak over ramp and window; MB/1k = peak / (clients/1000); marginal = (peak − idle) / (clients/1000)',
      'bytes = TCP payload received by the viewers (socket bytesRead), headers included for poll',
    ],
  },
  summary,
  ratios: ratioList,
  targets,
  table,
  runs: results,
  disturbedRuns: disturbed,
};
writeResults(plan.out, { script: 'bench:fanout', tables, data: output });
log(`results written to ${plan.out}`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
