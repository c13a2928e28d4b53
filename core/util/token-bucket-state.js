// The token bucket as plain data: the one refill rule, used by ./token-bucket.js (a closure for
// the venue server) and directly by holders that cannot keep a closure alive: the edge's shards
// store it in each viewer socket's attachment so a hibernated (evicted) shard still remembers how
// much a viewer has sent (docs/reference/edge-settings.md#other-limits).

/**
 * @typedef {{ tokens: number, at: number }} BucketState tokens left at time `at` (ms)
 * @typedef {{ ratePerSecond: number, burst: number }} BucketLimits
 */

/**
 * A full bucket at time `now`.
 * @param {BucketLimits} limits
 * @param {number} now ms
 * @returns {BucketState}
 */
export function fullBucket(limits, now) {
  return { tokens: limits.burst, at: now };
}

/**
 * The bucket refilled up to time `t` (never backwards in time). Pure: returns the next state.
 * @param {BucketState} state
 * @param {number} t ms
 * @param {BucketLimits} limits
 * @returns {BucketState}
 */
export function refill(state, t, limits) {
  return {
    tokens: Math.min(limits.burst, state.tokens + (Math.max(0, t - state.at) / 1000) * limits.ratePerSecond),
    at: Math.max(state.at, t),
  };
}

/**
 * Refill the bucket up to time `t` and take one token. Pure: returns the next state.
 * @param {BucketState} state
 * @param {number} t ms
 * @param {BucketLimits} limits
 * @returns {{ ok: boolean, state: BucketState }} ok is false when no token was left
 */
export function takeToken(state, t, limits) {
  const { tokens, at } = refill(state, t, limits);
  if (tokens < 1) return { ok: false, state: { tokens, at } };
  return { ok: true, state: { tokens: tokens - 1, at } };
}
