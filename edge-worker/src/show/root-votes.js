// The root's side of the edge's votes (votes.js, vote-seal.js; docs/reference/audience-protocol.md#audience-voices): the
// owner shards check votes against the prompt open in the root's state and report their totals
// here; the root sends the sum (and the shards' reaction taps) to the venue, and seals each prompt
// once the shards stop accepting votes for it.

import { createVoteSeal } from '../votes/vote-seal.js';
import { createVoteTotals, promptOf, sumCounts } from '../votes/votes.js';
import { shardStub } from '../env/stubs.js';

/**
 * @param {object} options
 * @param {Env} options.env
 * @param {string | null} options.show whose shards (show-identity.js)
 * @param {number} options.shardCount every shard index may own device ids
 * @param {() => unknown} options.state the root's current state (its `vote`)
 * @param {() => number} options.now the venue's clock (a prompt's close is on it)
 * @param {(text: string) => void} options.send to the publisher
 */
export function createRootVotes({ env, show, shardCount, state, now, send }) {
  const totals = createVoteTotals({ send });
  const all = Array.from({ length: shardCount }, (_, i) => i);

  /**
   * Seal a prompt on every shard: first each shard hands its owners the votes it has read, then
   * each owner seals and returns its count.
   * @param {string} key
   */
  async function collect(key) {
    await Promise.all(all.map((i) => shardStub(env, i, show).flushAllVotes()));
    const parts = await Promise.all(all.map((i) => shardStub(env, i, show).sealVotes(key)));
    const prompt = promptOf(state());
    return sumCounts(parts, prompt?.key === key ? prompt.options.length : undefined);
  }

  /** Each prompt's exact final count, taken once the shards stop accepting votes for it. */
  const seal = createVoteSeal({ now, collect, publish: (result) => totals.final(result), warn: (message) => console.warn(message) });

  return {
    /** The prompt open in the venue's state (its `vote`), or null: what owners check votes against. */
    currentVote: () => /** @type {any} */ (state())?.vote ?? null,

    /**
     * An owner shard's totals for a prompt; reports for another prompt than the open one are dropped.
     * @param {number} index
     * @param {string} key
     * @param {number[]} counts
     * @param {number} total
     */
    report(index, key, counts, total) {
      const prompt = promptOf(state());
      return prompt !== null && totals.report(prompt.key, index, key, counts, total);
    },

    /** @param {unknown} taps reaction taps a shard reported with a push result */
    taps(taps) {
      if (Number.isSafeInteger(taps) && /** @type {number} */ (taps) > 0) totals.taps(/** @type {number} */ (taps));
    },

    /** The state changed: arm, move or drop the seal of its prompt (a restart re-arms it too). */
    follow: () => seal.follow(promptOf(state())),
    /** A publisher connected: it may still wait for the final count it missed. */
    resend: () => seal.resend(promptOf(state())),
    stats: () => ({ ...totals.stats(), seal: seal.stats() }),
  };
}
