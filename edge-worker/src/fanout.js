// Root → shards delivery. One lane per shard keeps that shard's updates in order and batches
// whatever piles up while a push is in flight into the next single RPC. A shard that falls too
// far behind (or whose push failed) gets the latest snapshot instead of the missed deltas.

/**
 * @typedef {{ index: number, gen: number, rev: number, snapshot: string | null, items: string[], gap: boolean, clockOffset?: number }} PushBatch
 *   clockOffset: edge − venue clock (venue-clock.js), added by the root
 * @typedef {{ viewers: number, joining?: boolean, startedAt?: number, refused?: Record<string, number>, taps?: number }} PushResult
 * @typedef {{ index: number, gen: number, pending: string[], inflight: boolean, gap: boolean,
 *   viewers: number, startedAt: number | null, retries: number, retryTimer: unknown }} Lane
 */

/**
 * @param {object} options
 * @param {(index: number, batch: PushBatch) => Promise<PushResult>} options.send one RPC to a shard
 * @param {() => { rev: number, snapshot: string | null }} options.latest the root's current snapshot
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
    if (lane.inflight || (lane.pending.length === 0 && !lane.gap)) return;
    lane.inflight = true;
    const gap = lane.gap;
    const items = gap ? [] : lane.pending;
    lane.pending = [];
    lane.gap = false;
    const gen = lane.gen;
    const { rev, snapshot } = latest();
    try {
      const result = await send(lane.index, { index: lane.index, gen, rev, snapshot, items, gap });
      lane.viewers = result.viewers;
      lane.startedAt = result.startedAt ?? null;
      lane.retries = 0;
      // Drop an empty shard, unless it re-attached (new gen) while the push was in flight.
      if (result.viewers === 0 && !result.joining && lanes.get(lane.index) === lane && lane.gen === gen && lane.pending.length === 0) {
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
    if (lane.pending.length > 0) void drain(lane);
  }

  return {
    /**
     * Register (or re-register) a shard.
     * @param {number} index
     * @param {number} gen
     */
    attach(index, gen) {
      const lane = lanes.get(index);
      if (lane) lane.gen = gen;
      else lanes.set(index, { index, gen, pending: [], inflight: false, gap: false, viewers: 0, startedAt: null, retries: 0, retryTimer: null });
    },
    /**
     * Queue one serialized envelope for every shard and start pushing.
     * @param {string} item
     */
    publish(item) {
      for (const lane of lanes.values()) {
        lane.pending.push(item);
        if (lane.pending.length > maxPending) {
          lane.pending = [];
          lane.gap = true;
        }
        void drain(lane);
      }
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
