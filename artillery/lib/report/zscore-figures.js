// ZScore's published load-test figures ("ZScore Web Server Testing", szagorac/szcore docs/testing;
// docs/results.md#how-fast-how-small), and how a Tutti run's numbers line up against them.

import { isLoopbackUrl } from '../loopback.js';

export const ZSCORE_SOURCE =
  'ZScore Web Server Testing (szagorac/szcore, docs/testing): Union Rose score, Java/Undertow server, real phones';

export const ZSCORE = Object.freeze({
  wsWired: { users: 200, avg: 8, p99: 253, max: 491, setup: '200 wired clients' },
  wsWifi: { users: 200, avg: [54, 60], p99: [774, 942], max: [1400, 1600], setup: '200 Wi-Fi clients' },
  pageLoad: { users: 100, avg: [1700, 2700], max: [5600, 7100], failsAt: 150, setup: '100 Wi-Fi clients' },
  polling: { fineTo: 500, p99At1000: 4600, errorsFrom: 1500, setup: 'JMeter, 23 polls at 500 ms, 10 s ramp-up' },
  firstLoadBytes: 1.9e6,
  updateBytes: 18e3,
  criteria: { pageMs: 5000, pushMs: 1000 },
});

const fmtRange = (v, f) => (Array.isArray(v) ? `${f(v[0])}–${f(v[1])}` : f(v));
/** A duration for the report: "8.4 ms", "253 ms", "4.6 s"; "—" when there is no figure. */
export const ms = (v) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : v >= 1000
      ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)} s`
      : `${v >= 100 ? Math.round(v) : Math.round(v * 10) / 10} ms`;
/** A size for the report: "130 B", "11.0 KB", "1.90 MB"; "—" when there is no figure. */
export const bytes = (v) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : v >= 1e6
      ? `${(v / 1e6).toFixed(2)} MB`
      : v >= 1e3
        ? `${(v / 1e3).toFixed(1)} KB`
        : `${Math.round(v)} B`;

/**
 * @typedef {{ topic: string, zscore: string, zscoreSetup: string, tutti: string, tuttiSetup: string, verdict: 'better' | 'worse' | 'similar' | 'info' | 'missing' | 'fewer' }} ComparisonRow
 */

/**
 * A latency measured with far fewer clients than ZScore's says nothing against its figure: a
 * verdict needs at least half the clients ZScore had.
 * @param {number | null | undefined} users the run's users
 * @param {number} theirs the clients behind ZScore's figure
 */
export const comparableLoad = (users, theirs) => Number.isFinite(users) && /** @type {number} */ (users) >= theirs / 2;

/**
 * Rows for every figure ZScore published that this result has a counterpart for.
 * @param {import('./read-result.js').Run[]} runs
 * @param {any} meta
 * @returns {ComparisonRow[]}
 */
export function comparisonRows(runs, meta) {
  const rows = [];
  const target = meta?.target ?? runs.find((r) => r.target)?.target ?? null;
  const local = meta?.started?.server || isLoopbackUrl(target);
  // A plain `artillery run -o` file does not keep its target: say so rather than guess "remote".
  const place = local ? 'loopback, load generator on the same machine' : (target ?? 'target not recorded in the result file');
  const where = `${place}${meta?.started?.edge ? ', edge on local workerd' : ''}`;
  const machine = meta?.machine ? `${meta.machine.cpus} cores` : '';
  const setup = (run, what) => `${run.users ?? '?'} ${what}; ${where}${machine ? `, ${machine}` : ''}`;

  for (const run of runs) {
    const push = run.summaries['tutti.push_latency_ms'];
    const transport = transportOf(run);
    if (push && transport === 'WebSocket') {
      rows.push({
        topic: 'WebSocket push latency',
        zscore: `avg ${ms(ZSCORE.wsWired.avg)} · p99 ${ms(ZSCORE.wsWired.p99)} · max ${ms(ZSCORE.wsWired.max)}`,
        zscoreSetup: ZSCORE.wsWired.setup,
        tutti: `avg ${ms(push.mean)} · p99 ${ms(push.p99)} · max ${ms(push.max)}`,
        tuttiSetup: setup(run, 'WebSocket viewers'),
        verdict: comparableLoad(run.users, ZSCORE.wsWired.users) ? verdict(push.p99, ZSCORE.wsWired.p99) : 'fewer',
      });
      rows.push({
        topic: 'WebSocket push latency (Wi-Fi)',
        zscore: `avg ${fmtRange(ZSCORE.wsWifi.avg, ms)} · p99 ${fmtRange(ZSCORE.wsWifi.p99, ms)} · max ${fmtRange(ZSCORE.wsWifi.max, ms)}`,
        zscoreSetup: ZSCORE.wsWifi.setup,
        tutti: 'not measurable here: no Wi-Fi between generator and server',
        tuttiSetup: 'run the ws scenarios from phones/laptops on the venue Wi-Fi',
        verdict: 'missing',
      });
    } else if (push) {
      rows.push({
        topic: `${transport} push latency`,
        zscore: 'not published (ZScore measured WebSocket push only)',
        zscoreSetup: '—',
        tutti: `avg ${ms(push.mean)} · p99 ${ms(push.p99)} · max ${ms(push.max)}`,
        tuttiSetup: setup(run, `${transport === 'Polling' ? 'polling' : transport} viewers`),
        verdict: 'info',
      });
    }
    const page = run.summaries['tutti.page_load_ms'];
    if (page && run.kind === 'pageload') {
      rows.push({
        topic: 'Page load (first visit)',
        zscore: `avg ${fmtRange(ZSCORE.pageLoad.avg, ms)} · max ${fmtRange(ZSCORE.pageLoad.max, ms)}; fails at ~${ZSCORE.pageLoad.failsAt} clients`,
        zscoreSetup: ZSCORE.pageLoad.setup,
        tutti: `avg ${ms(page.mean)} · p99 ${ms(page.p99)} · max ${ms(page.max)}; ${failedOf(run)} failed`,
        tuttiSetup: setup(run, 'phones in bursts of 1–5'),
        verdict: comparableLoad(run.users, ZSCORE.pageLoad.users) ? verdict(page.max, ZSCORE.pageLoad.max[0]) : 'fewer',
      });
    }
    const pageBytes = run.summaries['tutti.page_bytes'];
    if (pageBytes && run.kind === 'pageload') {
      rows.push({
        topic: 'First-load size',
        zscore: bytes(ZSCORE.firstLoadBytes),
        zscoreSetup: 'HTML, JS, CSS, MP3',
        tutti: `${bytes(pageBytes.mean)} on the wire`,
        tuttiSetup: 'as fetched: app (br/gzip) + sw.js + any media the scenario names',
        verdict: verdict(pageBytes.mean, ZSCORE.firstLoadBytes, 0.9),
      });
    }
    if (run.kind === 'ramp' && run.counters['plugins.metrics-by-endpoint.poll.codes.200'] !== undefined) {
      const poll = run.summaries['plugins.metrics-by-endpoint.response_time.poll'] ?? run.summaries['http.response_time'];
      const errors = failedOf(run);
      rows.push({
        topic: 'Polling (23 polls at 500 ms)',
        zscore: `fine to ${ZSCORE.polling.fineTo} users; p99 ${ms(ZSCORE.polling.p99At1000)} at 1,000; errors from ${ZSCORE.polling.errorsFrom.toLocaleString('en')}`,
        zscoreSetup: ZSCORE.polling.setup,
        tutti: `poll response p99 ${ms(poll?.p99)} · max ${ms(poll?.max)}; ${errors} failed`,
        tuttiSetup: setup(run, 'clients, same plan'),
        verdict: (run.users ?? 0) >= 1000 ? verdict(poll?.p99, ZSCORE.polling.p99At1000) : errors === 0 ? 'similar' : 'worse',
      });
    }
  }
  const withBytes = runs.filter(
    (r) => r.summaries['tutti.push_latency_ms'] && r.counters['tutti.messages'] > 0 && r.counters['tutti.received_bytes'] > 0,
  );
  if (withBytes.length) {
    const run = withBytes[0];
    const per = run.counters['tutti.received_bytes'] / run.counters['tutti.messages'];
    rows.push({
      topic: 'State update size',
      zscore: `~${bytes(ZSCORE.updateBytes)} per update`,
      zscoreSetup: 'average update',
      tutti: `${bytes(per)} per envelope (mean, incl. the join snapshot)`,
      tuttiSetup: `${run.name}: deltas carry only what changed`,
      verdict: verdict(per, ZSCORE.updateBytes),
    });
  }
  return rows;
}

/** better: clearly under ZScore's figure; worse: over it; similar: within ±factor. */
function verdict(ours, theirs, factor = 0.8) {
  if (ours === null || ours === undefined || !Number.isFinite(ours)) return 'missing';
  if (ours <= theirs * factor) return 'better';
  if (ours >= theirs / factor) return 'worse';
  return 'similar';
}

/**
 * How many virtual users of a run failed (Artillery's `vusers.failed`, absent when none did).
 * @param {{ counters: Record<string, number> }} run
 */
export function failedOf(run) {
  return Number(run.counters['vusers.failed'] ?? 0);
}

/** Which transport a run measured, from its name or target. */
export function transportOf(run) {
  const name = `${run.name} ${run.target ?? ''}`;
  if (/(^|[-\s])ws\b|wss?:\/\//.test(name)) return 'WebSocket';
  if (/sse/.test(name)) return 'SSE';
  if (/poll/.test(name)) return 'Polling';
  return 'Push';
}
