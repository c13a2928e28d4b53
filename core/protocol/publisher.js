// The venue ↔ edge publisher protocol, in one place for both ends (docs/explanation/edge-design.md#root-srcshowshowjs-class-show
// and "Venue status"): the venue's uplink (local-server/src/edge/) opens a WebSocket to
// the edge's /publish and sends envelopes (core/protocol/envelope.js) plus the alive frame; the
// edge's root object (edge-worker/src/show/show.js) answers with the messages below and closes a
// publisher with the close codes below. Runtime-free: data and pure functions only.

/**
 * What the edge sends the publisher, by `type`.
 * - hello  on connect: where the edge stands and how often to send the alive frame
 *          `{type, epoch: string|null, seq: number|null, aliveMs}`
 * - ack    a frame was applied (or was a no-op) `{type, epoch, seq, viewers}`
 * - resync the frame does not continue the stream: send a snapshot `{type, reason, epoch, seq}`
 * - error  the frame was refused (TOO_BIG, BAD_FRAME, STALE) `{type, code, message}`
 * - votes  the edge's vote totals for a prompt `{type, key, counts, total, final?}` (docs/reference/audience-protocol.md#audience-voices)
 * - taps   reaction taps since the last report `{type, n}`
 * A newer edge may send more types; a publisher ignores those it does not know.
 */
export const EdgeMessage = Object.freeze({
  HELLO: 'hello',
  ACK: 'ack',
  RESYNC: 'resync',
  ERROR: 'error',
  VOTES: 'votes',
  TAPS: 'taps',
});

/** WebSocket close codes the edge sends a publisher (private range 4000–4999). */
export const PublisherClose = Object.freeze({
  /**
   * A newer publisher connected to the same show. The replaced one must not reconnect on its own:
   * it would replace the other in turn, and the two would take the show from each other.
   */
  REPLACED: 4001,
  /** No frame and no alive frame for VENUE_LOST_MS (a half-open socket): the venue is marked lost. */
  SILENT: 4002,
});

/**
 * The publisher's sign of life between frames. The edge answers it from the runtime with the same
 * text, without waking the show object, so an idle show still hibernates (docs/reference/publisher-protocol.md#venue-status)
 * the publisher ignores the answer.
 */
export const ALIVE_FRAME = '{"type":"alive"}';

/** How often the edge asks for ALIVE_FRAME (the hello's `aliveMs`). */
export const ALIVE_EVERY_MS = 1000;

/** A hello asking for alive frames more often than this is not obeyed (it would be a flood). */
export const MIN_ALIVE_MS = 100;

/**
 * The alive period a publisher should keep, read from a hello's `aliveMs`: null when the hello
 * asks for none (an older edge) or for an unreasonable period.
 * @param {unknown} aliveMs
 * @returns {number | null}
 */
export function alivePeriod(aliveMs) {
  const ms = Number(aliveMs);
  return Number.isFinite(ms) && ms >= MIN_ALIVE_MS ? ms : null;
}
