// Turns the runs of the fan-out benchmark into medians per case and implementation, the
// printed table, the ours/naive p99 ratios and the issue's targets (met or not — never guessed:
// a target whose case did not run says so).

import { median, round } from '../lib/stats.js';
import { formatCell } from '../lib/table.js';
import { recordTable } from '../lib/results-file.js';

/**
 * What the fan-out benchmark must show: p99 at 5,000 clients, the ratio to the naive baseline, a
 * 10,000-client hold and memory per 1,000 clients; the report marks each pass or fail.
 */
export const TARGETS = Object.freeze({
  p99Ms5k: 50,
  ratio5k: 0.8,
  holdSeconds: 120,
  holdClients: 10_000,
  mbPer1k: 20,
  marginalMbPer1k: 20,
});

const med = (runs, pick) => round(median(runs.map(pick)), 3);

/**
 * Median of each figure over the successful runs of one case × implementation; losses and
 * errors are summed over the runs (one lost message in any run must show).
 * @param {any[]} results every run's result
 */
export function summarizeRuns(results) {
  /** @type {Map<string, any[]>} */
  const groups = new Map();
  for (const r of results) {
    const key = `${r.case}|${r.impl}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  return [...groups.values()].map((all) => {
    const runs = all.filter((r) => r.ok);
    const first = all[0];
    return {
      case: first.case,
      impl: first.impl,
      transport: first.transport,
      clients: first.clients,
      runs: all.length,
      failedRuns: all.length - runs.length,
      errors: all.filter((r) => !r.ok).map((r) => r.error),
      connected: runs.length ? Math.min(...runs.map((r) => r.connected)) : 0,
      disturbedRuns: runs.filter((r) => r.disturbed).length,
      windowSeconds: med(runs, (r) => r.window.seconds),
      p50: med(runs, (r) => r.latencyMs.p50),
      p99: med(runs, (r) => r.latencyMs.p99),
      max: med(runs, (r) => r.latencyMs.max),
      worstMax: runs.length ? Math.max(...runs.map((r) => r.latencyMs.max)) : null,
      expected: runs.reduce((a, r) => a + r.messages.expected, 0),
      received: runs.reduce((a, r) => a + r.messages.received, 0),
      lost: runs.reduce((a, r) => a + r.messages.lost, 0),
      outOfOrder: runs.reduce((a, r) => a + r.messages.outOfOrder, 0),
      closed: runs.reduce((a, r) => a + r.connections.closedInWindow, 0),
      failedConnections: runs.reduce((a, r) => a + r.connections.failed, 0),
      fanP50: med(runs, (r) => r.fanoutMs.p50),
      fanP99: med(runs, (r) => r.fanoutMs.p99),
      rssMb: med(runs, (r) => r.rss.peakMb),
      mbPer1k: med(runs, (r) => r.rss.mbPer1k),
      marginalMbPer1k: med(runs, (r) => r.rss.marginalMbPer1k),
      kbPerClientMin: med(runs, (r) => r.bytes.kbPerClientPerMin),
      serverCpuPct: med(runs, (r) => r.cpu.serverPct),
      clientsCpuPct: med(runs, (r) => r.cpu.clientsPct),
      otherCpuPct: med(runs, (r) => r.cpu.otherProcessesPct),
      // Server CPU time per envelope delivered: barely moved by other processes stealing the CPU
      // (unlike wall-clock latency), so it compares implementations on a busy machine.
      cpuUsPerMsg: med(runs, (r) => (r.messages.received ? ((r.cpu.serverPct / 100) * r.window.seconds * 1e6) / r.messages.received : NaN)),
    };
  });
}

/** ours p99 / baseline p99 for every case that ran both. */
export function ratios(summary) {
  const out = [];
  for (const ours of summary.filter((s) => s.impl === 'ours')) {
    for (const base of summary.filter((s) => s.case === ours.case && s.impl !== 'ours')) {
      out.push({
        case: ours.case,
        baseline: base.impl,
        oursP99: ours.p99,
        baselineP99: base.p99,
        ratio: round(ours.p99 / base.p99, 3),
        // A baseline that could not even connect everyone was measured with fewer viewers.
        baselineConnected: base.connected,
        clients: base.clients,
      });
    }
  }
  return out;
}

/**
 * @param {any[]} summary
 * @param {ReturnType<typeof ratios>} ratioList
 */
export function evaluateTargets(summary, ratioList) {
  const targets = [];
  const ok = (s) => s && s.runs > s.failedRuns;

  const ws5k = summary.find((s) => s.case === 'ws:5000' && s.impl === 'ours');
  const ratio5k = ratioList.find((r) => r.case === 'ws:5000' && r.baseline === 'naive');
  // Issue 27: the same goal against the naive loop sending the engine's deltas (chunks whole).
  const ratioDelta5k = ratioList.find((r) => r.case === 'ws:5000' && r.baseline === 'naive-delta');
  if (!ok(ws5k))
    targets.push({
      target: `5,000 WS clients p99 ≤ ${TARGETS.p99Ms5k} ms`,
      status: 'not measured',
      detail: 'case ws:5000 did not run (or every run failed)',
    });
  else {
    const all = ws5k.connected >= ws5k.clients;
    targets.push({
      target: `5,000 WS clients p99 ≤ ${TARGETS.p99Ms5k} ms`,
      status: all && ws5k.p99 <= TARGETS.p99Ms5k ? 'met' : 'not met',
      detail: `median p99 ${ws5k.p99} ms${all ? '' : ` (only ${ws5k.connected} connected)`}`,
    });
    if (!ratio5k || !Number.isFinite(ratio5k.ratio))
      targets.push({ target: `5,000 WS p99 ≤ ${TARGETS.ratio5k}× naive p99`, status: 'not measured', detail: 'no naive run at ws:5000' });
    else
      targets.push({
        target: `5,000 WS p99 ≤ ${TARGETS.ratio5k}× naive p99`,
        status: ratio5k.ratio <= TARGETS.ratio5k ? 'met' : 'not met',
        detail: `ours ${ratio5k.oursP99} ms / naive ${ratio5k.baselineP99} ms = ${ratio5k.ratio}×`,
      });
    if (ratioDelta5k && Number.isFinite(ratioDelta5k.ratio))
      targets.push({
        target: `5,000 WS p99 ≤ ${TARGETS.ratio5k}× naive-delta p99`,
        status: ratioDelta5k.ratio <= TARGETS.ratio5k ? 'met' : 'not met',
        detail: `ours ${ratioDelta5k.oursP99} ms / naive-delta ${ratioDelta5k.baselineP99} ms = ${ratioDelta5k.ratio}×`,
      });
  }

  const hold = summary.find((s) => s.case.startsWith('hold:') && s.clients >= TARGETS.holdClients && s.impl === 'ours');
  const holdName = `${TARGETS.holdClients.toLocaleString('en')} WS clients held ${TARGETS.holdSeconds / 60} min, zero lost / out-of-order`;
  if (!ok(hold))
    targets.push({
      target: holdName,
      status: 'not measured',
      detail: hold ? `hold failed: ${hold.errors.join('; ')}` : 'no hold case ran',
    });
  else if (hold.windowSeconds < TARGETS.holdSeconds - 1)
    targets.push({ target: holdName, status: 'not measured', detail: `hold window was only ${hold.windowSeconds} s` });
  else {
    const clean =
      hold.connected >= hold.clients && hold.lost === 0 && hold.outOfOrder === 0 && hold.closed === 0 && hold.failedConnections === 0;
    targets.push({
      target: holdName,
      status: clean ? 'met' : 'not met',
      detail: `${hold.connected}/${hold.clients} connected for ${hold.windowSeconds} s; ${hold.received}/${hold.expected} messages; lost ${hold.lost}, out-of-order ${hold.outOfOrder}, closed ${hold.closed}`,
    });
  }

  const big = summary.filter((s) => s.impl === 'ours' && s.transport === 'ws' && s.clients >= 5000 && ok(s));
  const rssName = `RSS ≤ ${TARGETS.mbPer1k} MB per 1,000 clients (peak server RSS / (N/1000), WS N ≥ 5,000)`;
  if (big.length === 0) targets.push({ target: rssName, status: 'not measured', detail: 'no WS case with ≥ 5,000 clients ran' });
  else {
    const worst = big.reduce((a, b) => (b.mbPer1k > a.mbPer1k ? b : a));
    targets.push({
      target: rssName,
      status: big.every((s) => s.mbPer1k <= TARGETS.mbPer1k) ? 'met' : 'not met',
      detail:
        big.map((s) => `${s.case}: ${s.mbPer1k} MB/1k (${s.rssMb} MB total; ${s.marginalMbPer1k} MB/1k above idle)`).join('; ') +
        ` — worst ${worst.case}`,
    });
  }
  const marginalName = `RSS above idle ≤ ${TARGETS.marginalMbPer1k} MB per 1,000 clients ((peak − idle) / (N/1000), WS N ≥ 5,000)`;
  if (big.length > 0)
    targets.push({
      target: marginalName,
      status: big.every((s) => s.marginalMbPer1k <= TARGETS.marginalMbPer1k) ? 'met' : 'not met',
      detail: big.map((s) => `${s.case}: ${s.marginalMbPer1k} MB/1k above idle`).join('; '),
    });
  return targets;
}

const ms = (v) => formatCell(v);
const COLUMNS = [
  { key: 'case', label: 'case' },
  { key: 'impl', label: 'impl' },
  { key: 'connected', label: 'clients' },
  { key: 'p50', label: 'p50 ms', format: ms },
  { key: 'p99', label: 'p99 ms', format: ms },
  { key: 'max', label: 'max ms', format: ms },
  { key: 'lost', label: 'lost', format: (v, row) => (row.runs === row.failedRuns ? '-' : String(v)) },
  { key: 'outOfOrder', label: 'ooo', format: (v, row) => (row.runs === row.failedRuns ? '-' : String(v)) },
  { key: 'fanP50', label: 'fan-out p50', format: ms },
  { key: 'fanP99', label: 'fan-out p99', format: ms },
  { key: 'rssMb', label: 'RSS MB', format: ms },
  { key: 'mbPer1k', label: 'MB/1k', format: ms },
  { key: 'marginalMbPer1k', label: 'MB/1k>idle', format: ms },
  { key: 'kbPerClientMin', label: 'KB/client/min', format: ms },
  { key: 'serverCpuPct', label: 'srv CPU%', format: ms },
  { key: 'otherCpuPct', label: 'other CPU%', format: ms },
  { key: 'cpuUsPerMsg', label: 'srv µs/msg', format: ms },
  {
    key: 'runs',
    label: 'runs',
    format: (v, row) => `${row.failedRuns ? `${v - row.failedRuns}/${v}` : v}${row.disturbedRuns ? ` (${row.disturbedRuns} busy)` : ''}`,
  },
];

/**
 * The printed report: table, ratios, targets.
 * @param {any[]} summary
 * @param {ReturnType<typeof ratios>} ratioList
 * @param {ReturnType<typeof evaluateTargets>} targets
 * @param {import('../lib/results-file.js').PrintedTable[]} [tables] where the medians table is kept for the results file
 */
export function formatReport(summary, ratioList, targets, tables = []) {
  const lines = [recordTable(tables, 'fan-out: medians over runs (ms = push latency, receive − envelope t)', COLUMNS, summary), ''];
  lines.push('Medians over runs; lost / ooo (out-of-order) are totals over runs. ms = push latency (receive − envelope t);');
  lines.push('fan-out = server time to hand one update to every socket; MB = 2^20 bytes; KB = 1024 bytes of TCP payload received;');
  lines.push('CPU% = percent of one core during the window; other = CPU used by processes outside this benchmark (shared machine);');
  lines.push('srv µs/msg = server CPU time per envelope delivered (robust to other processes taking the CPU);');
  lines.push('"busy" runs = other processes used more than --max-other-cpu even after the retries; clients < N = ramp did not finish.');
  if (ratioList.length) {
    lines.push('', 'p99 ours / baseline:');
    for (const r of ratioList) {
      const partial =
        r.baselineConnected < r.clients ? ` (${r.baseline} had only ${r.baselineConnected}/${r.clients} viewers connected)` : '';
      lines.push(`  ${r.case}: ${r.oursP99} / ${r.baselineP99} ms (${r.baseline}) = ${r.ratio}×${partial}`);
    }
  }
  lines.push('', 'Targets:');
  for (const t of targets) lines.push(`  [${t.status.toUpperCase()}] ${t.target} — ${t.detail}`);
  const failures = summary.filter((s) => s.failedRuns > 0);
  if (failures.length) {
    lines.push('', 'Failed runs:');
    for (const f of failures) for (const e of f.errors) lines.push(`  ${f.case} ${f.impl}: ${e}`);
  }
  return lines.join('\n');
}
