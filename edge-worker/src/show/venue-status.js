// Whether the venue (the publisher) is there, as every viewer sees it: the root merges
// `venue: {status, since}` into the state it publishes (docs/reference/publisher-protocol.md#venue-status).
//   live  a publisher is connected and has been heard from within VENUE_LOST_MS
//   lost  it was live and went silent or away: the last state stays, marked lost
//   none  nothing published yet, or lost for longer than VENUE_EXPIRE_MS: no show
// "lost" and "none" are published by the root itself as snapshots of an epoch of its own
// (`lost-…`, `none-…`): a new epoch reaches every transport (WS, SSE, poll) as an ordinary
// snapshot, and when the venue comes back its snapshot starts its own epoch again, so the
// publisher's seq numbers are never shared with the root's.

import { createEnvelope } from '#core/protocol/envelope.js';

/** @typedef {{ status: 'live' | 'lost' | 'none', since: number }} Venue */

/**
 * The root's "none" snapshot uses a seq no publisher stream reaches (pollers resume by seq alone,
 * so the first real snapshot must not carry the seq they already have); the largest that
 * `?since=` and `Last-Event-ID` accept (15 digits, core/protocol/sse.js parseSeq).
 */
export const NONE_SEQ = 10 ** 15 - 1;

/**
 * @param {unknown} state the root's state
 * @returns {Venue}
 */
export function venueOf(state) {
  const v = /** @type {any} */ (state)?.venue;
  if (v && (v.status === 'live' || v.status === 'lost' || v.status === 'none') && Number.isFinite(v.since))
    return { status: v.status, since: v.since };
  return { status: 'none', since: 0 };
}

/**
 * The venue field of a snapshot the publisher just sent: still live since before, or live from now.
 * @param {unknown} previousState
 * @param {number} now
 * @returns {Venue}
 */
export function liveVenue(previousState, now) {
  const before = venueOf(previousState);
  return before.status === 'live' ? before : { status: 'live', since: now };
}

/**
 * The publisher's snapshot with the venue field merged in (re-encoded; the envelope's own fields kept).
 * @param {import('#core/protocol/envelope.js').Envelope} envelope
 * @param {Venue} venue
 */
export function withVenue(envelope, venue) {
  const data = { .../** @type {Record<string, unknown>} */ (envelope.data), venue };
  return { data, text: JSON.stringify({ ...envelope, data }) };
}

/**
 * The snapshot the root publishes when the venue is lost: the last state, marked lost.
 * @param {{ seq: number | null }} head
 * @param {Record<string, unknown> | null} state
 * @param {number} now
 */
export function lostSnapshot(head, state, now) {
  const data = { ...(state ?? {}), venue: { status: 'lost', since: now } };
  const seq = (head.seq ?? 0) + 1;
  const epoch = `lost-${now.toString(36)}`;
  return { epoch, seq, data, text: JSON.stringify(createEnvelope('snapshot', epoch, seq, now, data)) };
}

/**
 * The snapshot the root publishes when there is no show (nothing published yet, or expired).
 * @param {number} now
 */
export function noneSnapshot(now) {
  const data = { venue: { status: 'none', since: now } };
  const epoch = `none-${now.toString(36)}`;
  return { epoch, seq: NONE_SEQ, data, text: JSON.stringify(createEnvelope('snapshot', epoch, NONE_SEQ, now, data)) };
}
