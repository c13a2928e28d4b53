// The ordering rules of docs/reference/audience-protocol.md#endpoints, for a load client: follow epoch and seq,
// notice a gap or a new epoch (→ resync), drop duplicates. Unlike core/client/stream-tracker.js it
// never applies the merge patches: a virtual viewer needs to know whether it is in step, not what
// the state is, and applying 18 KB patches for thousands of viewers would load the generator, not
// the server.

/**
 * @typedef {'join' | 'live' | 'duplicate' | 'resync' | 'ignored'} Verdict
 *   join: the snapshot that answers a (re)connect or a resync request (not a push: no latency);
 *   live: a pushed envelope in order (measure its latency);
 *   duplicate: already seen; resync: a gap or a new epoch, ask for a snapshot;
 *   ignored: a delta while waiting for the snapshot.
 */

/** Follow one viewer's position in the stream. */
export function createSeqTracker() {
  let epoch = null;
  let seq = -1;
  /** Deltas cannot be trusted until a snapshot arrives (start, gap, new epoch). */
  let awaitingSnapshot = true;
  /** The next snapshot answers a request of ours (connect, reconnect, resync): not a push. */
  let joinPending = true;

  const lost = () => {
    awaitingSnapshot = true;
    joinPending = true;
    return /** @type {Verdict} */ ('resync');
  };

  return {
    /**
     * @param {{ type: string, epoch: string, seq: number }} head
     * @returns {Verdict}
     */
    accept(head) {
      if (head.type === 'snapshot') {
        const sameEpoch = head.epoch === epoch;
        if (sameEpoch && head.seq < seq) return 'duplicate';
        if (sameEpoch && head.seq === seq && !awaitingSnapshot) return 'duplicate';
        const verdict = joinPending ? 'join' : 'live';
        epoch = head.epoch;
        seq = head.seq;
        awaitingSnapshot = false;
        joinPending = false;
        return verdict;
      }
      if (awaitingSnapshot) return 'ignored';
      if (head.epoch !== epoch) return lost();
      if (head.seq <= seq) return 'duplicate';
      if (head.seq !== seq + 1) return lost();
      seq = head.seq;
      return 'live';
    },
    /** The copy cannot be trusted any more (e.g. a resume the server could not serve). */
    lost,
    /** A reconnect that tries to resume: deltas still count, a snapshot answering it is a join. */
    expectJoin() {
      joinPending = true;
    },
    seq: () => seq,
    epoch: () => epoch,
    inStep: () => !awaitingSnapshot,
  };
}
