// The console's audience numbers (docs/how-to/desktop-app.md#using-the-console): joins per second, push latency measured
// by the loopback latency probe, resyncs, coalesced frames, slow clients closed, and a two-minute
// history for the chart. Sampled once a second while a console looks.

import { clock } from './latency-probe.js';

const HISTORY_POINTS = 120; // one per second: two minutes of chart
const LATENCY_WINDOW_MS = 60_000;

const percentile = (/** @type {number[]} */ sorted, /** @type {number} */ p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;
const round1 = (/** @type {number | null} */ x) => (x === null ? null : Math.round(x * 10) / 10);

/**
 * Viewers at the venue (the latency probe is not among them, hub.js) and at the edge.
 * @param {{ counts: () => { total: number } & Record<string, number> }} hub the venue's fan-out
 * @param {{ status: () => { remoteViewers?: number | null } }} edge the edge mirror
 */
export function countViewers(hub, edge) {
  const local = hub.counts();
  const remote = edge.status().remoteViewers ?? null;
  return { local, edge: remote, total: local.total + (remote ?? 0) };
}

/**
 * @param {object} options
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {ReturnType<typeof import('./latency-probe.js').createLatencyProbe>} options.probe
 * @param {() => { total: number }} options.viewerCounts
 */
export function createAudienceStats({ metrics, probe, viewerCounts }) {
  /** @type {Array<{ t: number, p50: number | null, p99: number | null, viewers: number, joinsPerSecond: number | null }>} */
  const history = [];
  /** @type {{ t: number, joins: number } | null} */
  let lastTotals = null;
  /** @type {any} */
  let latest = null;

  const total = async (/** @type {any} */ metric) =>
    (await metric.get()).values.reduce((/** @type {number} */ sum, /** @type {any} */ v) => sum + v.value, 0);

  return {
    /** Take one sample (once a second) and return the numbers the console shows. */
    async sample() {
      const t = clock();
      const [joins, resyncs, dropped, slowClosed] = await Promise.all(
        [metrics.joins, metrics.resyncs, metrics.dropped, metrics.slowClosed].map(total),
      );
      // The latency probe is not counted in joins (hub.js), so this is phones only.
      const joinsPerSecond = lastTotals ? Math.max(0, (joins - lastTotals.joins) / ((t - lastTotals.t) / 1000)) : 0;
      lastTotals = { t, joins };
      probe.prune(t - LATENCY_WINDOW_MS);
      const windowed = probe.since(t - LATENCY_WINDOW_MS).sort((a, b) => a - b);
      const lastSecond = probe.since(t - 1000).sort((a, b) => a - b);
      history.push({
        t: Math.round(t),
        p50: round1(percentile(lastSecond, 0.5)),
        p99: round1(percentile(lastSecond, 0.99)),
        viewers: viewerCounts().total,
        joinsPerSecond: round1(joinsPerSecond),
      });
      if (history.length > HISTORY_POINTS) history.shift();
      latest = {
        joinsPerSecond: round1(joinsPerSecond),
        joinsTotal: joins,
        latency: {
          label: 'server-side push latency',
          about: 'envelope created → received by a loopback WebSocket viewer inside the server (fan-out and socket writes; not the Wi-Fi)',
          p50: round1(percentile(windowed, 0.5)),
          p99: round1(percentile(windowed, 0.99)),
          samples: windowed.length,
          windowMs: LATENCY_WINDOW_MS,
          probe: probe.state(),
        },
        resyncs,
        framesCoalesced: dropped,
        slowClientsClosed: slowClosed,
        history: history.slice(),
      };
      return latest;
    },
    /** The last sample, or null before the first. */
    latest: () => latest,
  };
}
