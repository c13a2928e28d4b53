// A token bucket: `rate` tokens per second refill it up to `burst`; each event takes one.
// Limits a sustained rate while tolerating bunching (a network or a stalled event loop often
// delivers a second's worth of well-behaved traffic at once), which a fixed window does not.

/**
 * @typedef {object} TokenBucket
 * @property {(t: number) => boolean} take take one token at time t (ms); false when none is left
 * @property {(t: number) => boolean} full true once the bucket has refilled completely by time t
 */

/**
 * @param {object} options
 * @param {number} options.ratePerSecond sustained events per second
 * @param {number} options.burst events allowed at once (the bucket's size)
 * @param {number} options.now time of creation (ms); the bucket starts full
 * @returns {TokenBucket}
 */
export function createTokenBucket({ ratePerSecond, burst, now }) {
  let tokens = burst;
  let at = now;
  const refill = (t) => {
    tokens = Math.min(burst, tokens + (Math.max(0, t - at) / 1000) * ratePerSecond);
    at = Math.max(at, t);
  };
  return {
    take(t) {
      refill(t);
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    full(t) {
      refill(t);
      return tokens >= burst;
    },
  };
}
