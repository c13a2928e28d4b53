// What the edge tells its remote viewers about this show: reads the edge's public /healthz
// (`venue: live | lost | none`, docs/reference/publisher-protocol.md#venue-status) every few seconds, so the
// console's edge panel and `tutti_edge_venue{status}` show what remote phones see, not a guess.

import { healthzUrl } from './edge-url.js';

const PROBE_EVERY_MS = 5000;
const PROBE_TIMEOUT_MS = 4000;

/**
 * @typedef {{ status: 'live' | 'lost' | 'none' | 'unknown', since: number | null, checkedAt: number | null, error: string | null }} EdgeVenue
 */

/**
 * @param {object} options
 * @param {string} options.url the edge's base URL (http(s)://…, as given to --edge)
 * @param {number} [options.everyMs]
 * @param {typeof fetch} [options.fetchImpl]
 * @returns {{ status: () => EdgeVenue, close: () => void }}
 */
export function createVenueProbe({ url, everyMs = PROBE_EVERY_MS, fetchImpl = fetch }) {
  const healthz = healthzUrl(url);
  /** @type {EdgeVenue} */
  let venue = { status: 'unknown', since: null, checkedAt: null, error: null };
  let closed = false;
  let running = false;

  async function probe() {
    if (closed || running || !healthz) return;
    running = true;
    try {
      const res = await fetchImpl(healthz, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      const body = /** @type {any} */ (await res.json());
      const status = ['live', 'lost', 'none'].includes(body?.venue) ? body.venue : 'unknown';
      venue = {
        status,
        since: Number.isFinite(body?.venueSince) ? body.venueSince : null,
        checkedAt: Date.now(),
        error: status === 'unknown' ? 'the edge does not report a venue status (an older edge?)' : null,
      };
    } catch (err) {
      venue = {
        status: 'unknown',
        since: null,
        checkedAt: Date.now(),
        error: `cannot read ${healthz}: ${err instanceof Error ? err.message : String(err)}`,
      };
    } finally {
      running = false;
    }
  }

  const timer = setInterval(() => void probe(), everyMs);
  timer.unref?.();
  void probe();
  return {
    status: () => ({ ...venue }),
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
