// The edge's final count of a prompt (docs/reference/audience-protocol.md#audience-voices; docs/explanation/edge-design.md#votes-at-the-edge)
// . Running totals reach the venue while a prompt is open, but under a vote storm a
// shard reads frames seconds late, so "the last totals before some deadline" is not a count: the
// venue would publish a result short of votes the edge accepted. Instead the root seals each
// prompt once its shards stop accepting votes for it (SEAL_AFTER_CLOSE_MS after `closes`): every shard
// hands its owners the votes it has read, then every owner seals its ledger and returns its count.
// The sum is exact (a vote either is in it or was answered `closed`), and goes to the venue marked
// final; the venue waits for it before it publishes the result.

import { SEAL_AFTER_CLOSE_MS } from './votes.js';

/** A failed seal (a shard unreachable) is tried again after this long... */
export const SEAL_RETRY_MS = 1000;
/** ...this many times in all; then the venue's own time limit decides without the edge's final count. */
export const SEAL_ATTEMPTS = 5;

/**
 * @typedef {{ key: string, counts: number[], total: number }} FinalCount
 */

/**
 * @param {object} options
 * @param {(key: string) => Promise<{ counts: number[], total: number }>} options.collect seal `key` on every shard and owner and add up the owners' counts
 * @param {(result: FinalCount) => void} options.publish send the final count to the venue
 * @param {() => number} [options.now]
 * @param {(message: string) => void} [options.warn]
 */
export function createVoteSeal({ collect, publish, now = () => Date.now(), warn = () => {} }) {
  /** @type {{ key: string, closes: number, timer: ReturnType<typeof setTimeout> } | null} the next seal, waiting for its time */
  let armed = null;
  /** @type {string | null} a seal under way */
  let running = null;
  /** @type {FinalCount | null} the latest final count */
  let result = null;
  let sealed = 0;
  let failures = 0;

  function cancel() {
    if (armed) clearTimeout(armed.timer);
    armed = null;
  }

  /**
   * @param {string} key
   * @param {number} attempt
   */
  async function run(key, attempt) {
    armed = null;
    running = key;
    try {
      const { counts, total } = await collect(key);
      running = null;
      result = { key, counts, total };
      sealed += 1;
      publish(result);
    } catch (err) {
      running = null;
      failures += 1;
      if (attempt >= SEAL_ATTEMPTS) {
        warn(
          `votes: could not seal ${key} after ${attempt} attempts (${err instanceof Error ? err.message : String(err)}); the venue decides without the edge's final count`,
        );
        return;
      }
      if (!armed) armed = { key, closes: Number.NaN, timer: setTimeout(() => void run(key, attempt + 1), SEAL_RETRY_MS) };
    }
  }

  return {
    /**
     * Follow the prompt in the root's state (votes.js promptOf) after every change: arm the seal
     * for SEAL_AFTER_CLOSE_MS after its close, move it when a tempo change moves the close, drop it
     * when the venue drops the prompt. A prompt already sealed is sealed again only if it is new.
     * @param {{ key: string, closes: number } | null} prompt
     */
    follow(prompt) {
      if (!prompt) return cancel();
      if (result?.key === prompt.key || running === prompt.key) return;
      if (armed?.key === prompt.key && (armed.closes === prompt.closes || Number.isNaN(armed.closes))) return;
      cancel();
      const { key, closes } = prompt;
      armed = { key, closes, timer: setTimeout(() => void run(key, 1), Math.max(0, closes + SEAL_AFTER_CLOSE_MS - now())) };
    },
    /**
     * A publisher (re)connected: it may have missed the final count while its link was down.
     * @param {{ key: string } | null} prompt the prompt in the root's state
     */
    resend(prompt) {
      if (result && prompt?.key === result.key) publish(result);
    },
    /** For /healthz?deep=1. */
    stats: () => ({ sealed, failures, last: result }),
    close: cancel,
  };
}
