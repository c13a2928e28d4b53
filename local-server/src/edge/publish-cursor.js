// Where the edge's copy of the state stream stands and what to send to bring it to the head
// (docs/reference/publisher-protocol.md): the missing deltas while the stream's replay window still has them,
// else one snapshot. The uplink (uplink.js) owns the connection and feeds this the edge's hello,
// acks and resync requests; nothing here queues, so memory stays bounded while the edge is away.

import { MAX_SNAPSHOT_BYTES } from '#core/protocol/envelope.js';

/**
 * @typedef {import('./uplink.js').UplinkStream} UplinkStream
 */

/**
 * @param {object} options
 * @param {UplinkStream} options.stream
 * @param {(text: string) => boolean} options.send false when the connection cannot take it now
 */
export function createPublishCursor({ stream, send }) {
  /** @type {string | null} */
  let ackedEpoch = null;
  /** @type {number | null} */
  let ackedSeq = null;
  // What the edge has, or will have once the frames already written arrive.
  /** @type {string | null} */
  let sentEpoch = null;
  /** @type {number | null} */
  let sentSeq = null;
  // A snapshot is on its way: resyncs for deltas that raced it are already answered.
  let snapshotInFlight = false;

  function sendSnapshot() {
    const snapshot = stream.snapshot();
    if (!send(snapshot.json)) return;
    sentEpoch = stream.epoch();
    sentSeq = snapshot.seq;
    snapshotInFlight = true;
  }

  return {
    /**
     * The edge greeted us with where it stands (epoch/seq as it says; anything else: nothing).
     * @param {unknown} epoch
     * @param {unknown} seq
     */
    hello(epoch, seq) {
      sentEpoch = typeof epoch === 'string' ? epoch : null;
      sentSeq = Number.isSafeInteger(seq) ? /** @type {number} */ (seq) : null;
      ackedEpoch = sentEpoch;
      ackedSeq = sentSeq;
      snapshotInFlight = false;
    },
    /**
     * The edge confirmed it applied up to (epoch, seq).
     * @param {unknown} epoch
     * @param {unknown} seq
     */
    ack(epoch, seq) {
      ackedEpoch = typeof epoch === 'string' ? epoch : null;
      ackedSeq = Number.isSafeInteger(seq) ? /** @type {number} */ (seq) : null;
      if (snapshotInFlight && ackedEpoch === sentEpoch && ackedSeq !== null && sentSeq !== null && ackedSeq >= sentSeq)
        snapshotInFlight = false;
    },
    /** The edge asked for a snapshot: send one unless one is already on its way. Returns whether it was needed. */
    resync() {
      if (snapshotInFlight) return false;
      sendSnapshot();
      return true;
    },
    /** The edge refused a frame: the next pump starts over from what it acknowledged. */
    refused() {
      snapshotInFlight = false;
    },
    /** Send what brings the edge to the stream's head (deltas, or a snapshot). */
    pump() {
      const epoch = stream.epoch();
      const seq = stream.seq();
      if (sentEpoch !== epoch || sentSeq === null || sentSeq > seq) return sendSnapshot();
      if (sentSeq === seq) return;
      const deltas = stream.deltasSince(sentSeq);
      if (!deltas) return sendSnapshot();
      for (const json of deltas) {
        // The edge refuses frames over MAX_SNAPSHOT_BYTES; a valid score's snapshot is never that
        // big, but a delta (a far seek) can be: send the snapshot, which jumps the edge ahead.
        if (json.length * 3 > MAX_SNAPSHOT_BYTES && Buffer.byteLength(json) > MAX_SNAPSHOT_BYTES) return sendSnapshot();
        send(json);
      }
      sentSeq = seq;
    },
    /** What the edge last confirmed, and how far behind the stream that is (null off-epoch). */
    status() {
      /** @type {number | null} */
      let lag = null;
      try {
        if (ackedEpoch !== null && ackedSeq !== null && ackedEpoch === stream.epoch()) lag = Math.max(0, stream.seq() - ackedSeq);
      } catch {
        // a broken stream must not break status()
      }
      return { ackedEpoch, ackedSeq, lag };
    },
    /** Where the edge stands as far as we know (for the log line on connect). */
    sent: () => ({ epoch: sentEpoch, seq: sentSeq }),
  };
}
