// The lean stream at the edge (docs/reference/audience-protocol.md#endpoints; docs/explanation/lean-stream.md#how-it-works)
// : the root derives it once per accepted update from its own state, with the venue's
// rule (core/stream/lean-state.js), numbers and encodes it once (core/stream/state-stream.js), and
// hands the envelope to the shards and the Worker's SSE/poll cache beside the full one. Viewers of
// the lean stream then get one message per ~15 s window (plus operator actions, votes and
// reactions) instead of one per beat. An operator's action that brings new `ahead` chunks is two
// lean updates, as at the venue (leanSteps): the action first, the look-ahead a moment after
// (LOOK_AHEAD_DELAY_MS, the root's timer: show.js) or just before the next update, whichever
// comes first. A look-ahead still waiting is not stored: a root evicted meanwhile derives the next
// update from the action's lean state, whose missing `ahead` then comes with it.
//
// Like the venue's, its seq space is its own; its epoch is the full epoch + `~lean-edge`
// (EDGE_LEAN_SUFFIX): the edge numbers its lean stream itself, so the same full epoch's lean seqs
// differ at the venue and here, and a client carried from one to the other (an overflow redirect,
// a page that reconnects elsewhere with ?since&epoch) must see a foreign epoch and start with a
// snapshot, never read one server's seq in the other's space. A new epoch
// (the publisher's new snapshot, or the root's own lost/none snapshot) starts it again at the
// full snapshot's seq, so a poller resuming by seq alone gets the new snapshot for the same
// reasons it does on the full stream (venue-status.js, NONE_SEQ). It is stored beside the full
// stream, so an evicted or restarted root carries on with the same numbers.

import { deriveLeanState, keepsBeat, leanSteps, LEAN_EPOCH_SUFFIX, withoutLookAhead } from '#core/stream/lean-state.js';
import { deltasAfter } from '#core/stream/catch-up.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { deltaKeys, forgetDeltas } from './stored-deltas.js';

/** The lean epoch at the edge: the full epoch + this (see above). */
export const EDGE_LEAN_SUFFIX = `${LEAN_EPOCH_SUFFIX}-edge`;

const HEAD_KEY = 'leanHead';
const DELTA_PREFIX = 'l:';
const deltaKey = deltaKeys(DELTA_PREFIX);

/**
 * @typedef {{ follows: string, epoch: string, seq: number, rev: number, state: Record<string, unknown> }} LeanHead
 *   follows: the full epoch it was derived from; rev: grows with every change (never reused, so
 *   the Worker's cache and the shards can tell a newer snapshot from an older one)
 * @typedef {{ epoch: string | null, seq: number | null, rev: number, snapshot: string | null,
 *   deltas: { seq: number, json: string }[], full: boolean }} LeanFeedReply
 */

/**
 * @param {ReturnType<typeof createStateStream> | null} stream the lean stream, null before the root has a head
 * @param {number} rev
 * @param {string | null} epoch the caller's position
 * @param {number | null} seq
 * @returns {LeanFeedReply}
 */
function feedReply(stream, rev, epoch, seq) {
  if (!stream) return { epoch: null, seq: null, rev, snapshot: null, deltas: [], full: true };
  const window = stream.window();
  const after = epoch === stream.epoch() ? deltasAfter(window, seq, stream.seq()) : null;
  return { epoch: stream.epoch(), seq: stream.seq(), rev, snapshot: stream.snapshot().json, deltas: after ?? window, full: after === null };
}

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the root's storage
 * @param {number} options.replayLimit lean deltas kept for resume (REPLAY_LIMIT, as the full stream)
 */
export function createLeanFeed({ storage, replayLimit }) {
  /** @type {ReturnType<typeof createStateStream> | null} null until the root has a head */
  let stream = null;
  /** @type {Record<string, unknown> | null} */
  let lean = null;
  let follows = '';
  let rev = 0;
  /** The seq the stored window starts after: deltas first + 1 … head are kept. */
  let base = 0;
  /** The `t` stamped on the next envelope: the source envelope's (venue clock), or the root's now. */
  let stamp = 0;
  /** When `stamp` was taken (root clock): a look-ahead released later is stamped that much later. */
  let stampedAt = 0;
  /** The last action's look-ahead (its one-step lean state), not yet on the stream: releaseLookAhead puts it there. */
  let waiting = /** @type {Record<string, unknown> | null} */ (null);
  /** How many actions have left a look-ahead waiting: the root's timer restarts for each new one (show.js). */
  let lookAheadsStarted = 0;
  /** The root's full state the lean state was last derived from (keepsBeat). */
  let lastFull = /** @type {Record<string, unknown> | null} */ (null);
  const now = () => stamp;

  const save = (extra = {}) => {
    if (!stream || !lean) return;
    /** @type {LeanHead} */
    const head = { follows, epoch: stream.epoch(), seq: stream.seq(), rev, state: lean };
    void storage.put({ [HEAD_KEY]: head, ...extra });
  };

  /** @param {{ seq: number }[]} entries */
  const forget = (entries) => forgetDeltas(storage, deltaKey, entries);

  /**
   * Start again in a new epoch from a full state.
   * @param {string} fullEpoch
   * @param {number} seq
   * @param {Record<string, unknown>} state
   */
  const restart = (fullEpoch, seq, state) => {
    waiting = null; // the new snapshot carries its own look-ahead
    if (stream) forget(stream.window());
    lastFull = state;
    lean = deriveLeanState(null, state);
    follows = fullEpoch;
    rev += 1;
    base = seq;
    const epoch = `${fullEpoch}${EDGE_LEAN_SUFFIX}`;
    if (stream) stream.reset(epoch, lean, seq);
    else stream = createStateStream({ epoch, state: lean, seq, now, replayLimit });
    save();
  };

  /**
   * Number one lean state, store it and add its envelope to `out` (nothing when it did not change).
   * @param {Record<string, unknown>} step
   * @param {string[]} out
   */
  const append = (step, out) => {
    lean = step;
    const update = /** @type {NonNullable<typeof stream>} */ (stream).update(step);
    if (!update) return;
    rev += 1;
    // The replay buffer keeps the last replayLimit deltas: the one it just dropped goes from storage too.
    const dropped = update.seq - replayLimit;
    if (dropped > base) forget([{ seq: dropped }]);
    save({ [deltaKey(update.seq)]: { seq: update.seq, json: update.json } });
    out.push(update.json);
  };

  /** @returns {string[]} the waiting look-ahead's envelope, now on the stream, or none */
  const release = () => {
    /** @type {string[]} */
    const out = [];
    if (waiting === null) return out;
    const step = waiting;
    waiting = null;
    append(step, out);
    return out;
  };

  return {
    /**
     * Read the stored lean stream (in the root's blockConcurrencyWhile). When it follows another
     * epoch than the root's head (or none was stored), it starts from the head's state.
     * @param {{ epoch: string | null, seq: number | null }} head the root's head
     * @param {Record<string, unknown> | null} state the root's state
     */
    async load(head, state) {
      const stored = /** @type {LeanHead | undefined} */ (await storage.get(HEAD_KEY));
      if (stored && Number.isSafeInteger(stored.rev)) rev = stored.rev;
      if (head.epoch === null || head.seq === null) return;
      stamp = Date.now();
      const listed = /** @type {{ seq: number, json: string }[]} */ ([...(await storage.list({ prefix: DELTA_PREFIX })).values()]);
      if (!stored || stored.follows !== head.epoch || typeof stored.epoch !== 'string' || !Number.isSafeInteger(stored.seq)) {
        forget(listed); // deltas of a lean stream that no longer follows the head
        restart(head.epoch, head.seq, state ?? {});
        return;
      }
      // Keep only a window that really chains up to the head (as the root does with its own).
      const replay = listed.at(-1)?.seq === stored.seq ? listed : [];
      if (replay !== listed) forget(listed);
      lean = stored.state;
      lastFull = state;
      follows = stored.follows;
      base = (replay[0]?.seq ?? stored.seq + 1) - 1;
      stream = createStateStream({ epoch: stored.epoch, state: stored.state, seq: stored.seq, replay, now, replayLimit });
    },

    /**
     * The root accepted an update (or minted its own snapshot): derive the lean state from the
     * root's new state. Returns the lean envelopes every lean viewer needs, in order: none when
     * the lean state did not change, one usually; an action with new `ahead` chunks gives its own
     * and leaves the look-ahead waiting (lookAheadWaiting, releaseLookAhead); a look-ahead that
     * was waiting comes first, unless the update keeps the beat and the cues (keepsBeat: a vote's
     * tally), which goes out without it while it keeps waiting.
     * @param {{ type: string, epoch: string, seq: number, t: number }} envelope what the root accepted
     * @param {Record<string, unknown>} state the root's state after it
     * @returns {string[]}
     */
    follow(envelope, state) {
      stamp = Number.isFinite(envelope.t) ? envelope.t : Date.now();
      stampedAt = Date.now();
      // A snapshot of the epoch already followed (the publisher's catch-up) continues the stream.
      if (!stream || follows !== envelope.epoch) {
        restart(envelope.epoch, envelope.seq, state);
        return [/** @type {NonNullable<typeof stream>} */ (stream).snapshot().json];
      }
      const previous = lastFull;
      lastFull = state;
      if (waiting !== null && previous !== null && keepsBeat(previous, state)) {
        // Same beat, same cues (a vote's tally, a vote dropped): the look-ahead keeps waiting, so
        // this goes out in the action's form and the look-ahead to come is this state's.
        /** @type {string[]} */
        const out = [];
        append(withoutLookAhead(state), out);
        waiting = deriveLeanState(waiting, state);
        return out;
      }
      // A look-ahead still waiting goes out first: the stream stays in order, and the next lean
      // state is derived from the one every lean viewer then has.
      const out = release();
      const steps = leanSteps(lean, state);
      append(steps[0], out);
      if (steps.length > 1) {
        waiting = steps[1];
        lookAheadsStarted += 1;
      }
      return out;
    },

    /** Whether an action's look-ahead waits for releaseLookAhead (the root's timer, show.js). */
    lookAheadWaiting: () => waiting !== null,

    /**
     * How many actions have left a look-ahead waiting so far. A change across follow() means a
     * new action's look-ahead waits from now (a republish that keeps the beat does not count).
     */
    lookAheadsStarted: () => lookAheadsStarted,

    /**
     * Put the waiting look-ahead on the stream, its `t` the last update's plus the time since.
     * @returns {string[]} its envelope, or none when nothing was waiting
     */
    releaseLookAhead() {
      const at = Date.now();
      stamp += Math.max(0, at - stampedAt);
      stampedAt = at;
      return release();
    },

    /** @returns {{ rev: number, snapshot: string | null }} the current lean snapshot, for shards */
    latest() {
      return { rev, snapshot: stream ? stream.snapshot().json : null };
    },

    /**
     * What the Worker's SSE/poll cache needs of the lean stream (as the root's `feed` for the
     * full one): the snapshot and the deltas after (epoch, seq); `full` when `deltas` is the whole
     * window (the caller's position was not in it).
     * @param {string | null} epoch
     * @param {number | null} seq
     * @returns {LeanFeedReply}
     */
    feed: (epoch, seq) => feedReply(stream, rev, epoch, seq),

    /** For /healthz?deep=1. */
    stats() {
      return { epoch: stream?.epoch() ?? null, seq: stream?.seq() ?? null, rev, replay: stream?.window().length ?? 0 };
    },
  };
}
