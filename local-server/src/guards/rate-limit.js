// Per-address token buckets for the audience listener: generous enough that a phone loading
// the page, polling twice a second and reconnecting never notices, tight enough that one
// address flooding requests gets 429s instead of starving everyone else.

import { createTokenBucket } from '#core/util/token-bucket.js';
import { isExemptAddress } from './exempt-address.js';

/**
 * @param {object} [options]
 * @param {number} [options.ratePerSecond] sustained requests per second per address (0 = no limit).
 *   127.0.0.1 and ::1 are never limited, so load tests run on the server's own machine measure
 *   the server rather than the limiter.
 * @param {number} [options.burst] requests an address may make at once
 * @param {() => number} [options.now]
 * @param {number} [options.maxAddresses] bound on the table (oldest forgotten first)
 */
export function createRateLimiter({ ratePerSecond = 20, burst = 60, now = () => performance.now(), maxAddresses = 100_000 } = {}) {
  /** @type {Map<string, import('#core/util/token-bucket.js').TokenBucket>} */
  const buckets = new Map();

  return {
    /**
     * Take one token for `address`; false when it has none left.
     * @param {string} address
     */
    take(address) {
      if (ratePerSecond <= 0 || isExemptAddress(address)) return true;
      const t = now();
      let bucket = buckets.get(address);
      if (!bucket) {
        if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value);
        bucket = createTokenBucket({ ratePerSecond, burst, now: t });
        buckets.set(address, bucket);
      }
      return bucket.take(t);
    },
    /** Forget addresses whose bucket has refilled (they are indistinguishable from new ones). */
    sweep() {
      const t = now();
      for (const [address, bucket] of buckets) if (bucket.full(t)) buckets.delete(address);
    },
    size: () => buckets.size,
  };
}
