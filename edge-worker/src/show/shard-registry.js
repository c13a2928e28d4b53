// The root's list of the shards that have viewers (docs/explanation/edge-design.md#design): a shard that got
// its first viewer attaches and is pushed every update from then on (fanout.js) until it reports
// none. The list is stored with a generation per attach, so a restarted root pushes to the same
// shards and a late "empty" from an old attach cannot drop a newer one.

import { createFanout } from '../shard/fanout.js';
import { shardStub } from '../env/stubs.js';

/**
 * @param {object} options
 * @param {Env} options.env
 * @param {DurableObjectStorage} options.storage the root's storage
 * @param {string | null} options.show whose shards (show-identity.js)
 * @param {() => number} options.clockOffset the venue clock's offset, carried by every push (venue-clock.js)
 * @param {() => { rev: number, snapshot: string | null, lean?: { rev: number, snapshot: string | null } }} options.latest the root's current snapshots
 * @param {(result: import('../shard/fanout.js').PushResult) => void} options.onResult what a shard reported back with a push
 */
export function createShardRegistry({ env, storage, show, clockOffset, latest, onResult }) {
  /** @type {Map<number, number>} shard index → attach generation (persisted) */
  const shards = new Map();
  let nextGen = 1;
  const save = () => void storage.put('shards', { nextGen, list: [...shards] });

  const fanout = createFanout({
    send: async (index, batch) => {
      const result = await shardStub(env, index, show).push({ ...batch, clockOffset: clockOffset() });
      onResult(result);
      return result;
    },
    latest,
    onEmpty: (index, gen) => {
      if (shards.get(index) !== gen) return;
      shards.delete(index);
      save();
    },
    warn: (message) => console.warn(message),
  });

  return {
    /** The stored list, after a wake-up: push to every shard that still had viewers. */
    async load() {
      const stored = /** @type {any} */ (await storage.get('shards'));
      if (!stored) return;
      nextGen = stored.nextGen;
      for (const [index, gen] of stored.list) {
        shards.set(index, gen);
        fanout.attach(index, gen);
      }
    },

    /**
     * A shard that got its first viewer registers for pushes.
     * @param {number} index
     * @param {number} viewers
     * @returns {number} its generation
     */
    attach(index, viewers) {
      const gen = nextGen++;
      shards.set(index, gen);
      fanout.attach(index, gen);
      fanout.report(index, viewers);
      save();
      return gen;
    },

    /**
     * Hand one update to every attached shard.
     * @param {string} text the full stream's envelope
     * @param {string[]} lean the lean stream's envelopes it led to, in order (lean-feed.js)
     */
    publish: (text, lean) => fanout.publish(text, lean),
    /**
     * Hand lean envelopes alone to every attached shard (an action's look-ahead, lean-feed.js).
     * @param {string[]} lean
     */
    publishLean: (lean) => fanout.publishLean(lean),
    viewers: () => fanout.viewers(),
    /** For /healthz?deep=1: viewers per shard, and when each shard's instance started. */
    stats: () => ({ viewers: fanout.viewers(), shards: fanout.perShard(), shardStartedAt: fanout.startedAt() }),
  };
}
