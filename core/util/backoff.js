// Reconnect and retry delays (one rule for every client that retries: the audience app's
// transports, the edge uplink, the edge media sync, the console's latency probe): exponential
// from a base, capped, and by default with "equal jitter" (half fixed, half random) so the
// thousands of phones — or the venue restarts — that lost the same thing at the same moment do
// not come back in the same millisecond, while a delay never collapses to zero.

/**
 * The delay before retry number `attempt` (0 = the first retry: `baseMs`, or between half of it
 * and all of it with jitter).
 * @param {number} attempt retries so far (≥ 0)
 * @param {object} options
 * @param {number} options.baseMs first delay
 * @param {number} options.capMs longest delay
 * @param {boolean} [options.jitter] equal jitter (default true); false gives the ceiling itself
 * @param {() => number} [options.random] uniform [0, 1) (injected so tests are deterministic)
 * @returns {number} ms
 */
export function backoffDelay(attempt, { baseMs, capMs, jitter = true, random = Math.random }) {
  // 2 ** 30 × any sane base is far past every cap; the min keeps the power finite.
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(0, attempt), 30));
  return jitter ? ceiling / 2 + random() * (ceiling / 2) : ceiling;
}
