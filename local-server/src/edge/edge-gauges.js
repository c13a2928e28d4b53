// The edge mirror's gauges (docs/reference/metrics.md#metric-names), read once a second: connected, lag, replaced,
// and what the edge tells remote viewers about the venue (live, lost, none, unknown).

const VENUE_STATUSES = ['live', 'lost', 'none', 'unknown'];

/**
 * @param {object} options
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {() => import('./uplink.js').UplinkStatus | null} options.uplink the current uplink's status (null: mirror off)
 * @param {() => string | null} options.venue the venue status the edge last reported (null: not known)
 * @returns {() => void} stops the gauges
 */
export function startEdgeGauges({ metrics, uplink, venue }) {
  const timer = setInterval(() => {
    const s = uplink();
    metrics.edgeConnected.set(s?.connected ? 1 : 0);
    metrics.edgeLag.set(s?.lag ?? 0);
    metrics.edgeReplaced.set(s?.state === 'replaced' ? 1 : 0);
    const seen = venue();
    for (const status of VENUE_STATUSES) metrics.edgeVenue.set({ status }, seen === status ? 1 : 0);
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
