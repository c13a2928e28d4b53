// The figures the performance record samples every few seconds (docs/how-to/record-and-replay.md#the-performance-record)
// : viewers by transport at the venue and on the edge, joins, push latency as the
// record's own latency probe measured it, the part pages' clock sync, the edge link, and the
// input refused since the last sample, by source.

/** @param {number[]} sorted @param {number} p */
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null);
const round1 = (/** @type {number | null} */ x) => (x === null ? null : Math.round(x * 10) / 10);

/** @param {any} metric a prom-client metric → { labelValue: count } for one label */
async function byLabel(metric, label) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const v of (await metric.get()).values) {
    const key = String(v.labels[label] ?? '');
    out[key] = (out[key] ?? 0) + v.value;
  }
  return out;
}

/**
 * @param {object} options
 * @param {import('../show/show.js').Show} options.show
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ status: () => any }} options.edge the edge mirror
 * @param {{ list: () => Array<{ rtt: number | null, bound: number | null, gone: boolean }> }} options.partPages
 * @param {{ since: (t: number) => number[], prune: (t: number) => void, state: () => { state: string } } | null} options.probe the record's latency probe
 * @param {() => number} options.clock the probe's clock (local ms)
 */
export function createRecordSampler({ show, metrics, edge, partPages, probe, clock }) {
  let lastAt = clock();
  /** @type {Record<string, number>} */
  let lastRefused = {};
  let lastJoins = 0;

  /** One sample: what happened since the previous one. */
  return async function sample() {
    const t = clock();
    const local = show.hub.counts();
    const e = edge.status();
    const [joins, refused, overflow, rejected] = await Promise.all([
      byLabel(metrics.joins, 'transport'),
      byLabel(metrics.badInput, 'source'),
      byLabel(metrics.overflow, 'transport'),
      byLabel(metrics.connectionsRejected, 'reason'),
    ]);
    const joinsTotal = Object.values(joins).reduce((a, b) => a + b, 0);
    /** @type {Record<string, number>} */
    const counted = {
      ...refused,
      ...Object.fromEntries(Object.entries(overflow).map(([k, v]) => [`overflow_${k}`, v])),
      ...Object.fromEntries(Object.entries(rejected).map(([k, v]) => [`rejected_${k}`, v])),
    };
    /** @type {Record<string, number>} */
    const newlyRefused = {};
    for (const [source, n] of Object.entries(counted)) {
      const fresh = n - (lastRefused[source] ?? 0);
      if (fresh > 0) newlyRefused[source] = fresh;
    }
    lastRefused = counted;
    const latency = probe ? probe.since(lastAt).sort((a, b) => a - b) : [];
    probe?.prune(t);
    const parts = partPages.list().filter((p) => !p.gone);
    const bounds = parts
      .map((p) => p.bound)
      .filter((b) => b !== null)
      .sort((a, b) => a - b);
    const rtts = parts
      .map((p) => p.rtt)
      .filter((r) => r !== null)
      .sort((a, b) => a - b);
    const out = {
      viewers: { ws: local.ws, sse: local.sse, poll: local.poll, edge: e.enabled ? (e.remoteViewers ?? null) : null },
      joins: joinsTotal - lastJoins,
      latency: {
        p50: round1(percentile(latency, 0.5)),
        p99: round1(percentile(latency, 0.99)),
        n: latency.length,
        probe: probe ? probe.state().state : 'off',
      },
      sync: {
        parts: parts.length,
        boundP50: round1(percentile(bounds, 0.5)),
        boundMax: round1(bounds.at(-1) ?? null),
        rttP50: round1(percentile(rtts, 0.5)),
      },
      edge: e.enabled ? { state: e.state ?? null, lag: e.lag ?? null } : null,
      refused: newlyRefused,
    };
    lastJoins = joinsTotal;
    lastAt = t;
    return out;
  };
}
