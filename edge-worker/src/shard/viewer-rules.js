// What a shard does with one frame a viewer sent: the venue server's rules (docs/reference/audience-protocol.md#endpoints
// docs/explanation/threat-model.md), decided in one pure function so the shard only carries them out.
// The per-socket budget lives in the socket's attachment (serializeAttachment), not in memory
// only: a shard that hibernated between two frames still knows what the viewer has spent.

import { CloseCode, MAX_CLIENT_FRAME_BYTES, parseClientFrame } from '#core/protocol/envelope.js';
import { fullBucket, takeToken } from '#core/util/token-bucket-state.js';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';
import { exceedsBytes } from '../show/publish-rules.js';
import { DEVICE_ID } from '#core/votes/vote-message.js';

// One limits table for venue and edge (core/protocol/viewer-limits.js): frames, resyncs, votes, taps.
export const { frames: FRAME_LIMITS, resyncs: RESYNC_LIMITS, votes: VOTE_LIMITS, taps: TAP_LIMITS } = VIEWER_LIMITS;

/**
 * @typedef {{ frames: import('#core/util/token-bucket-state.js').BucketState,
 *   resyncs: import('#core/util/token-bucket-state.js').BucketState,
 *   votes?: import('#core/util/token-bucket-state.js').BucketState, device?: string,
 *   taps?: import('#core/util/token-bucket-state.js').BucketState }} ViewerBudget
 *   device: the one device id this socket votes for (the first it used)
 * @typedef {'flood' | 'oversize' | 'binary' | 'frame' | 'resync_ignored' | 'vote'} Refusal
 * @typedef {{ action: 'pong', id: number, c: number }
 *   | { action: 'resync' }
 *   | { action: 'vote', vote: import('#core/votes/vote-message.js').Vote, limited: boolean }
 *   | { action: 'tap', n: number }
 *   | { action: 'ignore', refusal: Refusal }
 *   | { action: 'close', code: number, reason: string, refusal: Refusal }} ViewerVerdict
 *   tap.n: the taps that fit the socket's budget (0: all dropped)
 */

/** @type {readonly Refusal[]} every kind of refused viewer frame, as shards count and the root sums them */
export const REFUSALS = Object.freeze(['flood', 'oversize', 'binary', 'frame', 'resync_ignored', 'vote']);

/** @returns {Record<Refusal, number>} a zero count of each kind of refusal */
export function newRefusalCounts() {
  return /** @type {Record<Refusal, number>} */ (Object.fromEntries(REFUSALS.map((kind) => [kind, 0])));
}

/**
 * A fresh budget for a viewer that joins at `now`.
 * @param {number} now
 * @returns {ViewerBudget}
 */
export function newViewerBudget(now) {
  return { frames: fullBucket(FRAME_LIMITS, now), resyncs: fullBucket(RESYNC_LIMITS, now) };
}

/**
 * @param {unknown} value whatever deserializeAttachment() returned
 * @param {number} now
 * @returns {ViewerBudget}
 */
export function readViewerBudget(value, now) {
  const v = /** @type {any} */ (value);
  const valid = (b) => b && Number.isFinite(b.tokens) && Number.isFinite(b.at);
  if (!(v && valid(v.frames) && valid(v.resyncs))) return newViewerBudget(now);
  /** @type {ViewerBudget} */
  const budget = { frames: v.frames, resyncs: v.resyncs };
  if (valid(v.votes)) budget.votes = v.votes;
  if (valid(v.taps)) budget.taps = v.taps;
  if (typeof v.device === 'string' && DEVICE_ID.test(v.device)) budget.device = v.device;
  return budget;
}

/**
 * Judge one viewer frame. Order matters: the frame budget is charged first (a flood of anything
 * is a flood), then size, type and content.
 * @param {ViewerBudget} budget
 * @param {string | ArrayBuffer} message
 * @param {number} now ms
 * @returns {{ verdict: ViewerVerdict, budget: ViewerBudget }}
 */
export function judgeViewerFrame(budget, message, now) {
  const frameTake = takeToken(budget.frames, now, FRAME_LIMITS);
  /** @type {ViewerBudget} */
  let next = { ...budget, frames: frameTake.state };
  if (!frameTake.ok)
    return { verdict: { action: 'close', code: CloseCode.POLICY_VIOLATION, reason: 'too many frames', refusal: 'flood' }, budget: next };
  const tooBig = typeof message === 'string' ? exceedsBytes(message, MAX_CLIENT_FRAME_BYTES) : message.byteLength > MAX_CLIENT_FRAME_BYTES;
  if (tooBig)
    return { verdict: { action: 'close', code: CloseCode.MESSAGE_TOO_BIG, reason: 'frame over 4 KiB', refusal: 'oversize' }, budget: next };
  if (typeof message !== 'string')
    return {
      verdict: { action: 'close', code: CloseCode.POLICY_VIOLATION, reason: 'binary frames are not accepted', refusal: 'binary' },
      budget: next,
    };
  const parsed = parseClientFrame(message);
  if (parsed.ok === false)
    return {
      verdict: {
        action: 'close',
        code: CloseCode.POLICY_VIOLATION,
        reason: /** @type {any} */ (parsed).reason,
        refusal: /** @type {any} */ (parsed).vote ? 'vote' : 'frame',
      },
      budget: next,
    };
  const frame = /** @type {any} */ (parsed).frame;
  if (frame.type === 'ping') return { verdict: { action: 'pong', id: frame.id, c: frame.c }, budget: next };
  if (frame.type === 'vote') return judgeVote(next, frame.vote, now);
  if (frame.type === 'tap') {
    let taps = next.taps ?? fullBucket(TAP_LIMITS, now);
    let n = 0;
    for (; n < frame.n; n += 1) {
      const take = takeToken(taps, now, TAP_LIMITS);
      taps = take.state;
      if (!take.ok) break;
    }
    return { verdict: { action: 'tap', n }, budget: { ...next, taps } };
  }
  const resyncTake = takeToken(budget.resyncs, now, RESYNC_LIMITS);
  next = { ...next, resyncs: resyncTake.state };
  return { verdict: resyncTake.ok ? { action: 'resync' } : { action: 'ignore', refusal: 'resync_ignored' }, budget: next };
}

/**
 * A vote on a viewer socket: one device id per socket (another one closes it, as on the venue),
 * and VOTE_LIMITS per socket (beyond: answered `rate`, not forwarded).
 * @param {ViewerBudget} budget
 * @param {import('#core/votes/vote-message.js').Vote} vote
 * @param {number} now
 * @returns {{ verdict: ViewerVerdict, budget: ViewerBudget }}
 */
function judgeVote(budget, vote, now) {
  if (budget.device !== undefined && budget.device !== vote.device) {
    return {
      verdict: { action: 'close', code: CloseCode.POLICY_VIOLATION, reason: 'one device id per connection', refusal: 'vote' },
      budget,
    };
  }
  const take = takeToken(budget.votes ?? fullBucket(VOTE_LIMITS, now), now, VOTE_LIMITS);
  return { verdict: { action: 'vote', vote, limited: !take.ok }, budget: { ...budget, votes: take.state, device: vote.device } };
}
