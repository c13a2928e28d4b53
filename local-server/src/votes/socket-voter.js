// What one audience WebSocket may do with votes (docs/reference/audience-protocol.md#audience-voices; docs/explanation/threat-model.md#audience-votes)
// : it speaks for one device id (the first it votes with; another one closes
// the socket) and casts at most the votes budget of the viewer limits table shared with the edge
// (core/protocol/viewer-limits.js); taps have their own budget there.

import { createTokenBucket } from '#core/util/token-bucket.js';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';

/**
 * @param {{ cast: (vote: import('#core/votes/vote-message.js').Vote) => string }} desk
 * @param {import('../logs/metrics.js').Metrics} metrics
 * @returns {(vote: import('#core/votes/vote-message.js').Vote) => { outcome: string } | { close: string }}
 */
export function createSocketVoter(desk, metrics) {
  /** @type {string | null} */
  let device = null;
  const budget = createTokenBucket({ ...VIEWER_LIMITS.votes, now: performance.now() });
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
 * A socket's tap budget (VIEWER_LIMITS.taps).
 * @returns {(n: number) => number} how many of these n taps fit (they count; the rest are dropped)
 */
export function createTapBudget() {
  const budget = createTokenBucket({ ...VIEWER_LIMITS.taps, now: performance.now() });
  return (n) => {
    // The taps that fit count, the rest are dropped: the same rule as the edge's (edge-worker/src/shard/viewer-rules.js).
    let fit = 0;
    while (fit < n && budget.take(performance.now())) fit += 1;
    return fit;
  };
}
