// The root's copy of the show's full stream (docs/explanation/edge-design.md#design): the head, the latest
// state, its snapshot and a replay window of the last REPLAY_LIMIT deltas, kept in storage so the
// show survives eviction, restarts and deploys. It only stores and answers; judging frames is
// publish-rules.js', pushing them is the shard registry's.
//
// Storage writes are queued, never awaited: the output gate holds every reply and push until
// they are durable (Durable Objects' output gate), so callers may stay synchronous.

import { createEnvelope } from '#core/protocol/envelope.js';
import { applyMergePatch } from '#core/protocol/merge-patch.js';
import { deltasAfter } from '#core/stream/catch-up.js';
import { deltaKeys, forgetDeltas } from './stored-deltas.js';
import { liveVenue, venueOf, withVenue } from './venue-status.js';

const DELTA_PREFIX = 'd:';
const deltaKey = deltaKeys(DELTA_PREFIX);

/**
 * minted: the head is the root's own venue snapshot (lost/none, venue-status.js), not the publisher's.
 * @typedef {{ epoch: string | null, seq: number | null, rev: number, minted?: boolean }} StreamHead
 * @typedef {{ epoch: string | null, seq: number | null, rev: number, snapshot: string | null,
 *   deltas: { seq: number, json: string }[], full: boolean }} FullFeed
 */

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the root's storage
 * @param {number} options.replayLimit deltas kept for resume (REPLAY_LIMIT)
 */
export function createStreamStore({ storage, replayLimit }) {
  /** @type {StreamHead} */
  let head = { epoch: null, seq: null, rev: 0, minted: false };
  /** @type {Record<string, unknown> | null} */
  let state = null;
  /** @type {{ seq: number, json: string }[]} serialized deltas, oldest first */
  let replay = [];
  /** @type {string | null} */
  let snapshotJson = null;

  const makeSnapshot = () =>
    head.epoch === null || head.seq === null
      ? null
      : JSON.stringify(createEnvelope('snapshot', head.epoch, head.seq, Date.now(), state ?? {}));

  function dropReplay() {
    forgetDeltas(storage, deltaKey, replay);
    replay = [];
  }

  /**
   * @param {{ epoch: string, seq: number }} at
   * @param {boolean} minted
   * @param {Record<string, unknown>} data
   * @param {string} text
   */
  function takeSnapshot(at, minted, data, text) {
    head = { epoch: at.epoch, seq: at.seq, rev: head.rev + 1, minted };
    dropReplay();
    state = data;
    snapshotJson = text;
    void storage.put({ meta: head, state });
  }

  return {
    head: () => head,
    state: () => state,
    snapshot: () => snapshotJson,
    venue: () => venueOf(state),
    /** For /healthz?deep=1. */
    stats: () => ({ epoch: head.epoch, seq: head.seq, rev: head.rev, replay: replay.length, venue: venueOf(state) }),

    /** Read the stream back after a wake-up; false when nothing was ever published. */
    async load() {
      const meta = /** @type {any} */ (await storage.get('meta'));
      if (!meta || typeof meta.epoch !== 'string') return false;
      head = { epoch: meta.epoch, seq: meta.seq, rev: meta.rev ?? 0, minted: meta.minted === true };
      state = (await storage.get('state')) ?? {};
      const deltas = await storage.list({ prefix: DELTA_PREFIX });
      replay = /** @type {{ seq: number, json: string }[]} */ ([...deltas.values()]);
      // Keep only a window that really chains up to the head.
      if (replay.at(-1)?.seq !== head.seq) replay = [];
      snapshotJson = makeSnapshot();
      return true;
    },

    /**
     * Where the publisher's stream stands. The root's own venue snapshots are not part of it:
     * after one, the publisher must start again with a snapshot, as on a fresh edge.
     * @returns {{ epoch: string | null, seq: number | null }}
     */
    publisherHead: () => (head.minted ? { epoch: null, seq: null } : { epoch: head.epoch, seq: head.seq }),

    /**
     * The publisher's snapshot, with the venue marked live (every viewer learns it from the snapshot).
     * @param {import('#core/protocol/envelope.js').Envelope} envelope a snapshot judged 'apply'
     * @returns {string} the bytes to forward (the venue field merged in)
     */
    applySnapshot(envelope) {
      const merged = withVenue(envelope, liveVenue(state, Date.now()));
      takeSnapshot(envelope, false, merged.data, merged.text);
      return merged.text;
    },

    /**
     * @param {import('#core/protocol/envelope.js').Envelope} envelope a delta judged 'apply'
     * @param {string} text its bytes, forwarded to viewers unchanged
     */
    applyDelta(envelope, text) {
      head = { epoch: envelope.epoch, seq: envelope.seq, rev: head.rev + 1, minted: false };
      state = /** @type {Record<string, unknown>} */ (applyMergePatch(state ?? {}, envelope.data));
      replay.push({ seq: envelope.seq, json: text });
      const dropped = replay.length > replayLimit ? replay.shift() : null;
      snapshotJson = makeSnapshot();
      void storage.put({ meta: head, state, [deltaKey(envelope.seq)]: { seq: envelope.seq, json: text } });
      if (dropped) void storage.delete(deltaKey(dropped.seq));
    },

    /**
     * One of the root's own venue snapshots (venue-status.js).
     * @param {{ epoch: string, seq: number, data: Record<string, unknown>, text: string }} snapshot
     */
    mint(snapshot) {
      takeSnapshot(snapshot, true, snapshot.data, snapshot.text);
    },

    /**
     * What the Worker's SSE/poll cache needs: the snapshot and the deltas after (epoch, seq).
     * `full` means `deltas` is the whole replay window (the caller's position was not in it).
     * @param {string | null} epoch
     * @param {number | null} seq
     * @returns {FullFeed}
     */
    feed(epoch, seq) {
      const after = epoch === head.epoch ? deltasAfter(replay, seq, head.seq) : null;
      return {
        epoch: head.epoch,
        seq: head.seq,
        rev: head.rev,
        snapshot: snapshotJson,
        deltas: after ?? replay.slice(),
        full: after === null,
      };
    },
  };
}
