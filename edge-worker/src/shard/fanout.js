// Root → shards delivery. One lane per shard keeps that shard's updates in order and batches
// whatever piles up while a push is in flight into the next single RPC. A shard that falls too
// far behind (or whose push failed) gets the latest snapshot instead of the missed deltas.
// Each push carries both streams (docs/reference/audience-protocol.md#endpoints): the full updates and the lean ones
// (lean-feed.js, rare); the lean snapshot only rides along when it changed since the shard's
// last push.

/**
 * @typedef {{ index: number, gen: number, rev: number, snapshot: string | null, items: string[], gap: boolean,
 *   leanRev: number, leanSnapshot: string | null, leanItems: string[], clockOffset?: number }} PushBatch
 *   clockOffset: edge − venue clock (venue-clock.js), added by the root; leanSnapshot: null when
 *   the shard already has the lean snapshot of leanRev
 * @typedef {{ viewers: number, joining?: boolean, startedAt?: number, refused?: Record<string, number>, taps?: number }} PushResult
 * @typedef {{ index: number, gen: number, pending: string[], pendingLean: string[], leanRevSent: number, inflight: boolean, gap: boolean,
 *   viewers: number, startedAt: number | null, retries: number, retryTimer: unknown }} Lane
 */

/**
 * The next push of a lane, which is emptied: its pending updates, or after a gap (a failed push,
 * too many pending) only the snapshots. The lean snapshot rides along when the shard lacks it.
 * @param {Lane} lane
 * @param {{ rev: number, snapshot: string | null, lean?: { rev: number, snapshot: string | null } }} now the root's current snapshots
 * @returns {PushBatch}
 */
function takeBatch(lane, { rev, snapshot, lean = { rev: 0, snapshot: null } }) {
  const { gap } = lane;
  const leanSnapshot = gap || lane.leanRevSent !== lean.rev ? lean.snapshot : null;
  const batch = { index: lane.index, gen: lane.gen, rev, snapshot, items: gap ? [] : lane.pending, gap, leanRev: lean.rev, leanSnapshot };
  const leanItems = gap ? [] : lane.pendingLean;
  lane.pending = [];
  lane.pendingLean = [];
  lane.gap = false;
  return { ...batch, leanItems };
}

/**
 * @param {object} options
 * @param {(index: number, batch: PushBatch) => Promise<PushResult>} options.send one RPC to a shard
 * @param {() => { rev: number, snapshot: string | null, lean?: { rev: number, snapshot: string | null } }} options.latest the root's current snapshots
 * @param {(index: number, gen: number) => void} options.onEmpty a shard reported no viewers; it was dropped
 * @param {(message: string) => void} [options.warn]
 * @param {number} [options.maxPending] deltas queued per shard before falling back to a snapshot
 * @param {number} [options.retryMs]
 * @param {number} [options.maxRetries]
 */
export function createFanout({ send, latest, onEmpty, warn = () => {}, maxPending = 64, retryMs = 1000, maxRetries = 5 }) {
  /** @type {Map<number, Lane>} */
  const lanes = new Map();

  /** @param {Lane} lane */
  async function drain(lane) {
    if (lane.inflight || (lane.pending.length === 0 && lane.pendingLean.length === 0 && !lane.gap)) return;
    lane.inflight = true;
    const batch = takeBatch(lane, latest());
    const { gen } = batch;
    try {
      const result = await send(lane.index, batch);
      if (batch.leanSnapshot !== null) lane.leanRevSent = batch.leanRev;
      lane.viewers = result.viewers;
      lane.startedAt = result.startedAt ?? null;
      lane.retries = 0;
      // Drop an empty shard, unless it re-attached (new gen) while the push was in flight.
      if (
        result.viewers === 0 &&
        !result.joining &&
        lanes.get(lane.index) === lane &&
        lane.gen === gen &&
        lane.pending.length === 0 &&
        lane.pendingLean.length === 0
      ) {
        lanes.delete(lane.index);
        onEmpty(lane.index, gen);
      }
    } catch (err) {
      warn(`push to shard ${lane.index} failed: ${err instanceof Error ? err.message : String(err)}`);
      lane.gap = true; // its viewers missed something: the next push carries the snapshot
      lane.retries += 1;
      if (lane.retries <= maxRetries && !lane.retryTimer) {
        lane.retryTimer = setTimeout(() => {
          lane.retryTimer = null;
          void drain(lane);
        }, retryMs * lane.retries);
      }
    } finally {
      lane.inflight = false;
    }
    if (lane.pending.length > 0 || lane.pendingLean.length > 0) void drain(lane);
  }

  /**
   * Queue envelopes of both streams for every shard and start pushing; a lane that falls too far
   * behind gets the snapshots instead.
   * @param {string[]} items full stream
   * @param {string[]} leanItems lean stream
   */
  function queue(items, leanItems) {
    for (const lane of lanes.values()) {
      lane.pending.push(...items);
      lane.pendingLean.push(...leanItems);
      if (lane.pending.length > maxPending || lane.pendingLean.length > maxPending) {
        lane.pending = [];
        lane.pendingLean = [];
        lane.gap = true;
      }
      void drain(lane);
    }
  }

  return {
    /**
     * Register (or re-register) a shard.
     * @param {number} index
     * @param {number} gen
     */
    attach(index, gen) {
      const lane = lanes.get(index);
      // A new attach got the snapshots in its reply; the next push sends the lean one again anyway.
      if (lane) {
        lane.gen = gen;
        lane.leanRevSent = -1;
      } else
        lanes.set(index, {
          index,
          gen,
          pending: [],
          pendingLean: [],
          leanRevSent: -1,
          inflight: false,
          gap: false,
          viewers: 0,
          startedAt: null,
          retries: 0,
          retryTimer: null,
        });
    },
    /**
     * Queue one serialized envelope (and the lean envelopes it led to, in order: none, one, or an
     * action then its look-ahead) for every shard and start pushing.
     * @param {string} item
     * @param {string[]} [leanItems]
     */
    publish(item, leanItems = []) {
      queue([item], leanItems);
    },
    /**
     * Queue lean envelopes alone (an action's look-ahead released later: lean-feed.js).
     * @param {string[]} leanItems
     */
    publishLean(leanItems) {
      queue([], leanItems);
    },
    /** Total viewers the shards reported on their last push. */
    viewers() {
      let total = 0;
      for (const lane of lanes.values()) total += lane.viewers;
      return total;
    },
    /** @returns {Record<string, number>} viewers per shard index */
    perShard() {
      return Object.fromEntries([...lanes.values()].map((lane) => [String(lane.index), lane.viewers]));
    },
    /** @returns {Record<string, number | null>} when each shard's current instance started, as of its last push */
    startedAt() {
      return Object.fromEntries([...lanes.values()].map((lane) => [String(lane.index), lane.startedAt]));
    },
    /**
     * Record a viewer count a shard reported outside a push (on attach).
     * @param {number} index
     * @param {number} viewers
     */
    report(index, viewers) {
      const lane = lanes.get(index);
      if (lane) lane.viewers = viewers;
    },
    size: () => lanes.size,
  };
}
