// What one audience WebSocket may do with votes (README.md, "Audience voices"; SECURITY.md,
// "Audience votes"): it speaks for one device id (the first it votes with; another one closes
// the socket) and casts at most VOTE_BURST votes at once, then VOTES_PER_SECOND.

import { createTokenBucket } from '#core/util/token-bucket.js';

/** A phone votes once per prompt and may change its mind a few times; more is a script. */
/** Taps per second one socket may report (a thumb manages about 10); beyond, they are dropped and counted. */
export const TAPS_PER_SECOND = 20;
export const VOTES_PER_SECOND = 2;
export const VOTE_BURST = 10;

/**
 * @param {{ cast: (vote: import('#core/votes/vote-message.js').Vote) => string }} desk
 * @param {import('../metrics.js').Metrics} metrics
 * @returns {(vote: import('#core/votes/vote-message.js').Vote) => { outcome: string } | { close: string }}
 */
export function createSocketVoter(desk, metrics) {
  /** @type {string | null} */
  let device = null;
  const budget = createTokenBucket({ ratePerSecond: VOTES_PER_SECOND, burst: VOTE_BURST, now: performance.now() });
  return (vote) => {
    if (device !== null && vote.device !== device) return { close: 'one device id per connection' };
    device = vote.device;
    if (!budget.take(performance.now())) {
      metrics.votes.inc({ outcome: 'rate' });
      return { outcome: 'rate' };
    }
    return { outcome: desk.cast(vote) };
  };
}

/**
 * A socket's tap budget: TAPS_PER_SECOND, a burst of the same.
 * @returns {(n: number) => boolean} whether these n taps fit
 */
export function createTapBudget() {
  const budget = createTokenBucket({ ratePerSecond: TAPS_PER_SECOND, burst: TAPS_PER_SECOND, now: performance.now() });
  return (n) => {
    for (let i = 0; i < n; i += 1) if (!budget.take(performance.now())) return false;
    return true;
  };
}
