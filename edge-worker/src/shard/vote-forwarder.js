// A shard's viewers' votes on their way to their owners (docs/reference/audience-protocol.md#audience-voices; votes.js):
// every device id has one owner shard, this one or another. Votes for one owner are gathered for
// VOTE_BATCH_MS (or up to VOTE_BATCH_MAX) into one RPC; each viewer gets the owner's answer to its
// own vote. The root's seal (vote-seal.js) first asks every shard to hand over what it has read.

import { encodeVoteReply } from '#core/votes/vote-message.js';
import { isAccepted } from '#core/votes/tally.js';
import { ownerOf, VOTE_BATCH_MAX, VOTE_BATCH_MS } from '../votes/votes.js';

/** @typedef {{ vote: import('#core/votes/vote-message.js').Vote, at: number, ws: WebSocket }} WaitingVote */

/**
 * @param {object} options
 * @param {number} options.shardCount
 * @param {(owner: number, items: { vote: unknown, at: number }[]) => Promise<string[]>} options.record the owner's recordVotes
 */
export function createVoteForwarder({ shardCount, record }) {
  /** @type {Map<number, { items: WaitingVote[], timer: ReturnType<typeof setTimeout> }>} votes waiting to go to their owner */
  const batches = new Map();
  /** @type {Set<Promise<void>>} batches on their way to their owners */
  const flights = new Set();

  /**
   * @param {number} owner
   * @param {WaitingVote[]} items
   */
  async function send(owner, items) {
    /** @type {string[]} */
    let outcomes;
    try {
      outcomes = await record(
        owner,
        items.map(({ vote, at }) => ({ vote, at })),
      );
    } catch {
      outcomes = [];
    }
    items.forEach(({ vote, ws }, i) => {
      const outcome = outcomes[i] ?? 'unavailable';
      try {
        ws.send(encodeVoteReply(vote.key, isAccepted(outcome) ? null : outcome));
      } catch {
        // the viewer left; its vote counts all the same
      }
    });
  }

  /**
   * Send one owner its batch now.
   * @param {number} owner
   */
  function flush(owner) {
    const batch = batches.get(owner);
    if (!batch) return Promise.resolve();
    batches.delete(owner);
    clearTimeout(batch.timer);
    const flight = send(owner, batch.items).finally(() => flights.delete(flight));
    flights.add(flight);
    return flight;
  }

  return {
    /**
     * A viewer's vote, judged by viewer-rules.js.
     * @param {WebSocket} ws
     * @param {import('#core/votes/vote-message.js').Vote} vote
     * @param {boolean} limited over this socket's vote budget: answered, not counted
     */
    vote(ws, vote, limited) {
      if (limited) return ws.send(encodeVoteReply(vote.key, 'rate'));
      const owner = ownerOf(vote.device, shardCount);
      let batch = batches.get(owner);
      if (!batch) {
        batch = { items: [], timer: setTimeout(() => flush(owner), VOTE_BATCH_MS) };
        batches.set(owner, batch);
      }
      batch.items.push({ vote, at: Date.now(), ws });
      if (batch.items.length >= VOTE_BATCH_MAX) void flush(owner);
    },

    /** Hand every vote read so far to its owner; resolves once every owner has answered. */
    async flushAll() {
      for (const owner of [...batches.keys()]) void flush(owner);
      await Promise.all([...flights]);
    },
  };
}
