// A token bucket: `rate` tokens per second refill it up to `burst`; each event takes one.
// Limits a sustained rate while tolerating bunching (a network or a stalled event loop often
// delivers a second's worth of well-behaved traffic at once), which a fixed window does not.

import { fullBucket, refill, takeToken } from './token-bucket-state.js';

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
  // The refill rule lives once, in token-bucket-state.js (the edge keeps the same state as data).
  const limits = { ratePerSecond, burst };
  let state = fullBucket(limits, now);
  return {
    take(t) {
      const result = takeToken(state, t, limits);
      state = result.state;
      return result.ok;
    },
    full(t) {
      state = refill(state, t, limits);
      return state.tokens >= burst;
    },
  };
}
