// What one audience WebSocket may do with votes (README.md, "Audience voices"; SECURITY.md,
// "Audience votes"): it speaks for one device id (the first it votes with; another one closes
// the socket) and casts at most VOTE_BURST votes at once, then VOTES_PER_SECOND.

import { createTokenBucket } from '#core/util/token-bucket.js';

/** A phone votes once per prompt and may change its mind a few times; more is a script. */
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
