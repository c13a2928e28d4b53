// Cloudflare's Workers Rate Limiting binding (`ratelimits` in wrangler.jsonc; Miniflare enforces
// it locally): counters shared by the isolates of a location, per period of 10 or 60 s.
// Which limit guards what is in docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects; the numbers are in wrangler.jsonc.

/**
 * @typedef {{ limit: (options: { key: string }) => Promise<{ success: boolean }> }} RateLimiter
 * @typedef {'JOIN_LIMITER' | 'VENUE_JOIN_LIMITER' | 'VOTE_ADDRESS_LIMITER' | 'VOTE_SESSION_LIMITER' | 'PUBLISH_FAILURE_LIMITER'} LimiterName
 */

/** Seconds a refused client is told to wait (the binding's windows are 10 or 60 s). */
export const RETRY_AFTER_S = {
  JOIN_LIMITER: 60,
  VENUE_JOIN_LIMITER: 60,
  VOTE_ADDRESS_LIMITER: 10,
  VOTE_SESSION_LIMITER: 10,
  PUBLISH_FAILURE_LIMITER: 60,
};

/**
 * Spend one unit of `name` for `key`. A deployment without the binding (an old wrangler.jsonc)
 * is not limited: the check is only as good as its configuration, and says so once.
 * @param {Env} env
 * @param {LimiterName} name
 * @param {string} key
 * @returns {Promise<boolean>} true: within the limit
 */
export async function withinLimit(env, name, key) {
  const limiter = /** @type {RateLimiter | undefined} */ (/** @type {any} */ (env)[name]);
  if (!limiter || typeof limiter.limit !== 'function') {
    warnOnce(name);
    return true;
  }
  try {
    const { success } = await limiter.limit({ key });
    return success;
  } catch {
    return true; // the limiter itself failing must not take the show down
  }
}

const warned = new Set();
/** @param {string} name */
function warnOnce(name) {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(`edge: no ${name} rate-limit binding (wrangler.jsonc "ratelimits"); that limit is off`);
}
