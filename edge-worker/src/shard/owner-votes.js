// The votes a shard owns (votes.js): the device ids that hash to its index, whichever shard (or the
// Worker's POST /vote) read them. Each item is checked again here, since it arrives by RPC, then
// counted in the shard's ledger; a sealed prompt refuses later votes `closed`.

import { parseVote } from '#core/votes/vote-message.js';
import { createVoteLedger, ownerOf, VOTE_BATCH_MAX } from '../votes/votes.js';

/** Longest prompt key a seal request may name. */
const MAX_KEY_LENGTH = 200;

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the owner shard's storage
 * @param {() => any} options.root the root's stub (the open prompt, the totals)
 * @param {number} options.index this shard's index
 * @param {number} options.shardCount
 */
export function createOwnerVotes({ storage, root, index, shardCount }) {
  const ledger = createVoteLedger({ storage, root });
  return {
    /**
     * @param {unknown} items [{ vote, at }]: at most VOTE_BATCH_MAX, `at` when the edge received the vote
     * @returns {Promise<string[]>} per vote: counted, changed, repeat, closed, unknown_option or bad
     */
    async record(items) {
      if (!Array.isArray(items) || items.length > VOTE_BATCH_MAX) return [];
      const good = [];
      const outcomes = items.map((item) => {
        const parsed = parseVote(item?.vote);
        if (parsed.ok === false || !Number.isFinite(item.at) || ownerOf(parsed.vote.device, shardCount) !== index) return 'bad';
        good.push({ vote: parsed.vote, at: item.at });
        return null;
      });
      const counted = await ledger.recordMany(index, good);
      let next = 0;
      return outcomes.map((o) => o ?? counted[next++]);
    },

    /**
     * This owner's final count of a prompt (vote-seal.js).
     * @param {unknown} key
     * @returns {Promise<{ counts: number[], total: number }>}
     */
    async seal(key) {
      if (typeof key !== 'string' || key.length > MAX_KEY_LENGTH) throw new Error('bad seal request');
      return ledger.seal(key);
    },
  };
}
