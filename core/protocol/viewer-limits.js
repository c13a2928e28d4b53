// What one viewer socket may send, per socket, at the venue (local-server/src/routes/ws.js,
// votes/socket-voter.js) and at the edge (edge-worker/src/shard/viewer-rules.js): one limits table,
// documented in docs/reference/audience-protocol.md#endpoints, docs/explanation/threat-model.md and docs/explanation/edge-design.md
// ("Viewer frames"). Each budget is a token bucket (core/util/token-bucket-state.js): `burst`
// at once, then `ratePerSecond`. Both servers apply them in the same order: every frame is
// charged to `frames` first (a flood of anything is a flood), then size, binary, syntax; then a
// ping is answered, a vote charged to `votes`, a tap to `taps`, a resync to `resyncs`.

/**
 * @typedef {import('#core/util/token-bucket-state.js').BucketLimits} BucketLimits
 */

export const VIEWER_LIMITS = Object.freeze({
  /**
   * Every frame. A viewer pings at most ~14 times a second while it learns the clock, then every
   * few seconds. Sustained traffic above 50 frames/s is a flood (closed with 1008); a burst of up
   * to 200 is not: a jittery path or a stalled event loop delivers seconds of well-behaved pings
   * at once, and a tool measuring the clock may fire a hundred. Each answer is a ~60-byte pong.
   */
  frames: Object.freeze({ ratePerSecond: 50, burst: 200 }),
  /**
   * Resyncs. One is answered with the whole snapshot (≈18 KB on a big score) for a 17-byte
   * request; a viewer needs one after a rare gap or a new epoch. 3 at once, then 6 a minute;
   * beyond, a resync gets no answer and is counted (the socket stays open). A real viewer whose
   * resync goes unanswered reconnects, and a new socket starts with a snapshot.
   */
  resyncs: Object.freeze({ ratePerSecond: 6 / 60, burst: 3 }),
  /** Votes. A phone votes once per prompt and may change its mind a few times; beyond, answered `rate`. */
  votes: Object.freeze({ ratePerSecond: 2, burst: 10 }),
  /**
   * Reaction taps. The venue reads level 1 as 3 taps a second per viewer
   * (local-server/src/votes/reaction-meter.js, TAPS_PER_VIEWER_AT_FULL), so a viewer's taps count
   * up to that rate and no further: the level then says what share of the audience taps, and a
   * handful of frantic sockets cannot pin it (docs/explanation/threat-model.md: 60 of 360 tapping at 20/s read 1.0 with
   * a 20/s budget, ≈ 0.17 with this one). Beyond, dropped and counted.
   */
  taps: Object.freeze({ ratePerSecond: 3, burst: 6 }),
});
