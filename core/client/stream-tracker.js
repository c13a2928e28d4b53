// What every viewer does with the state stream (docs/reference/audience-protocol.md#endpoints): keep a copy of
// the state, apply deltas in order, and notice when it can no longer trust that copy (a seq gap or
// a new epoch) so the transport can ask for a snapshot. Duplicates and stale envelopes (a replay
// overlapping what we already have, a late frame from a transport we are leaving) are ignored,
// never applied twice.

import { applyEnvelope } from '#core/stream/state-stream.js';
import { envelopeProblem } from '#core/protocol/envelope.js';

/**
 * @typedef {'applied' | 'ignored' | 'resync' | 'invalid'} TrackResult
 *
 * @typedef {object} TrackOutcome
 * @property {TrackResult} result what happened to the envelope
 * @property {'duplicate' | 'stale' | 'gap' | 'epoch' | 'no-state' | 'malformed' | null} reason
 * @property {boolean} epochChanged true when this envelope started a new epoch (a snapshot from a restarted server)
 *
 * @typedef {object} StreamTracker
 * @property {(envelope: unknown) => TrackOutcome} accept feed one envelope from any transport
 * @property {() => Record<string, unknown> | null} state the current state (null before the first snapshot)
 * @property {() => string | null} epoch
 * @property {() => number} seq -1 before the first snapshot
 * @property {() => boolean} needsResync true from a gap/new epoch until the next snapshot
 * @property {() => void} requestResync mark the copy as untrusted (e.g. after sleeping)
 * @property {() => { applied: number, ignored: number, resyncs: number, invalid: number }} counts
 */

/**
 * Track one viewer's copy of the audience state.
 * @returns {StreamTracker}
 */
export function createStreamTracker() {
  /** @type {Record<string, unknown> | null} */
  let state = null;
  /** @type {string | null} */
  let epoch = null;
  let seq = -1;
  let resync = false;
  const counts = { applied: 0, ignored: 0, resyncs: 0, invalid: 0 };

  /**
   * @param {TrackResult} result
   * @param {TrackOutcome['reason']} reason
   * @param {boolean} [epochChanged]
   * @returns {TrackOutcome}
   */
  function outcome(result, reason, epochChanged = false) {
    if (result === 'applied') counts.applied += 1;
    else if (result === 'ignored') counts.ignored += 1;
    else if (result === 'invalid') counts.invalid += 1;
    return { result, reason, epochChanged };
  }

  /** @param {TrackOutcome['reason']} reason */
  function flagResync(reason) {
    // Count each episode once: further gap deltas while we wait for the snapshot are the same problem.
    if (!resync) counts.resyncs += 1;
    resync = true;
    return outcome('resync', reason);
  }

  return {
    accept(value) {
      if (envelopeProblem(value) !== null) return outcome('invalid', 'malformed');
      const env = /** @type {import('../protocol/envelope.js').Envelope} */ (value);

      if (env.type === 'snapshot') {
        const epochChanged = epoch !== null && env.epoch !== epoch;
        // An older snapshot of the same epoch (a slow transport we are leaving) would move us back in time.
        if (!epochChanged && state !== null && env.seq < seq) return outcome('ignored', 'stale');
        if (!epochChanged && state !== null && env.seq === seq && !resync) return outcome('ignored', 'duplicate');
        state = applyEnvelope(null, env);
        epoch = env.epoch;
        seq = env.seq;
        resync = false;
        return outcome('applied', null, epochChanged);
      }

      // A delta only makes sense on top of the state at seq-1 of the same epoch.
      if (state === null) return flagResync('no-state');
      if (env.epoch !== epoch) return flagResync('epoch');
      if (env.seq <= seq) return outcome('ignored', env.seq === seq ? 'duplicate' : 'stale');
      if (env.seq !== seq + 1) return flagResync('gap');
      // A delta that chains is safe to apply even while a snapshot was asked for (after a sleep):
      // seq guarantees it is the next change of the very state we hold.
      state = applyEnvelope(state, env);
      seq = env.seq;
      return outcome('applied', null);
    },
    state: () => state,
    epoch: () => epoch,
    seq: () => seq,
    needsResync: () => resync,
    requestResync() {
      if (!resync) counts.resyncs += 1;
      resync = true;
    },
    counts: () => ({ ...counts }),
  };
}
