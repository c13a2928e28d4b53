// Votes on the edge (docs/reference/audience-protocol.md#audience-voices; docs/explanation/edge-design.md#votes-at-the-edge). Every device id
// has one owner shard, hash(device) mod SHARD_COUNT: the shard a viewer is connected to forwards
// its vote there (and the Worker forwards POST /vote there), so a reconnect or a second tab that
// lands on another shard still counts once. The owner checks the vote against the prompt the root
// holds, keeps one choice per device (in memory and in its storage, so hibernation or eviction
// forgets nothing) and reports its totals to the root, one report in flight at a time; the root
// adds every owner's totals up and sends the sum to the venue. After the close the root seals the
// prompt (vote-seal.js): every shard hands its owners the votes it has read, every owner seals its
// ledger (later votes are refused `closed`) and returns its count, and the root sends the venue the
// sum marked final: the edge's exact count, which the venue waits for before its result.

import { SCORE_LIMITS } from '#core/score/validate-limits.js';
import { changesTally, createTally } from '#core/votes/tally.js';
import { judgeVote } from '#core/votes/vote-round.js';
import { STORAGE_BATCH } from '../show/stored-deltas.js';

/**
 * The root seals a prompt this long after its close (vote-seal.js): votes the edge reads until
 * then count. Longer than the venue's 300 ms: a shard reads a viewer's frame when its turn comes,
 * and under a vote storm that can be seconds after the phone sent it (bench/votes measured it),
 * while the phone itself stops offering the buttons at the close. The venue waits for the final
 * count (local-server/src/votes/vote-desk.js).
 */
export const SEAL_AFTER_CLOSE_MS = 3000;
/** A shard gathers the votes for one owner this long (or up to VOTE_BATCH_MAX) into one RPC. */
export const VOTE_BATCH_MS = 20;
export const VOTE_BATCH_MAX = 256;
/** How often the root sends the edge's totals to the venue at most. */
export const TOTALS_INTERVAL_MS = 200;
const VOTE_PREFIX = 'v:';
/** A sealed prompt's marker in an owner's storage: no vote counts after its final count was taken. */
const SEAL_PREFIX = 's:';
/** Sealed prompt keys an owner remembers in memory (storage remembers them all). */
const SEALED_KEPT = 8;

/**
 * The shard that owns a device's vote (FNV-1a of the id).
 * @param {string} device
 * @param {number} shardCount
 */
export function ownerOf(device, shardCount) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < device.length; i += 1) {
    hash ^= device.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shardCount;
}

/**
 * The prompt open in a state, as the owners check votes against it (from the venue's `vote`).
 * @param {any} state the root's current state
 * @returns {{ key: string, options: string[], closes: number, closed: boolean } | null}
 */
export function promptOf(state) {
  const vote = state?.vote;
  if (!vote || typeof vote.key !== 'string' || !Array.isArray(vote.options) || !Number.isFinite(vote.closes)) return null;
  return { key: vote.key, options: vote.options.map((o) => String(o?.id)), closes: vote.closes, closed: vote.closed === true };
}

/**
 * An owner's totals on their way to the root: one report per prompt in flight, the latest wins,
 * and a failed one is sent again with the next vote (or at once when one came meanwhile).
 * @param {object} options
 * @param {() => any} options.root the root object's stub
 * @param {(key: string) => ReturnType<typeof createTally> | undefined} options.tallyOf the tally of a prompt, if held
 * @returns {(index: number, key: string) => void}
 */
function createTotalsReporter({ root, tallyOf }) {
  /** @type {Map<string, { inflight: boolean, dirty: boolean }>} */
  const reports = new Map();
  return function report(index, key) {
    const tally = tallyOf(key);
    if (!tally) return;
    const state = reports.get(key) ?? { inflight: false, dirty: false };
    reports.set(key, state);
    if (state.inflight) {
      state.dirty = true;
      return;
    }
    state.inflight = true;
    state.dirty = false;
    void (async () => {
      try {
        await root().voteTotals(index, key, tally.counts(), tally.total());
      } catch {
        state.dirty = true; // the next vote (or the retry below) sends it again
      } finally {
        state.inflight = false;
      }
      if (state.dirty) report(index, key);
    })();
  };
}

/**
 * One owner shard's ledger.
 * @param {object} options
 * @param {DurableObjectStorage} options.storage
 * @param {() => any} options.root the root object's stub
 */
export function createVoteLedger({ storage, root }) {
  /** @type {Map<string, { prompt: NonNullable<ReturnType<typeof promptOf>>, tally: ReturnType<typeof createTally> }>} */
  const ledgers = new Map();
  /** @type {Map<string, Promise<any>>} prompt look-ups in flight, shared by the votes that wait for them */
  const lookups = new Map();
  const report = createTotalsReporter({ root, tallyOf: (key) => ledgers.get(key)?.tally });
  /** @type {Set<string>} prompts sealed here (the latest SEALED_KEPT; storage has them all) */
  const sealed = new Set();

  /** @param {string} key */
  function remember(key) {
    sealed.add(key);
    if (sealed.size > SEALED_KEPT) sealed.delete(sealed.values().next().value);
  }

  /**
   * The choices stored for `key` (one per device id), counted again.
   * @param {string} key
   * @param {number} options
   */
  async function storedTally(key, options) {
    const prefix = `${VOTE_PREFIX}${key}:`;
    const tally = createTally(options);
    for (const [name, option] of await storage.list({ prefix })) tally.cast(name.slice(prefix.length), Number(option));
    return tally;
  }

  /** The ledger of `key`: the root's prompt, and the choices stored before a hibernation. */
  async function ledgerFor(key) {
    const known = ledgers.get(key);
    if (known) return known;
    if (!lookups.has(key)) {
      lookups.set(
        key,
        (async () => {
          try {
            const prompt = promptOf({ vote: await root().currentVote() });
            if (!prompt || prompt.key !== key) return null;
            // An owner evicted since the seal reads the marker back with the choices.
            if ((await storage.get(`${SEAL_PREFIX}${key}`)) === true) remember(key);
            const tally = await storedTally(key, prompt.options.length);
            // Keep the ledgers of the current prompt and the one before at most.
            if (ledgers.size >= 2) ledgers.delete(ledgers.keys().next().value);
            const ledger = { prompt, tally };
            ledgers.set(key, ledger);
            return ledger;
          } finally {
            lookups.delete(key);
          }
        })(),
      );
    }
    return lookups.get(key);
  }

  return {
    /**
     * Count votes this shard owns, in the order they came, until the prompt is sealed. (`at`,
     * when a shard read each vote, travels along for diagnosis; the seal, not a clock, decides.)
     * @param {number} index this shard's index
     * @param {{ vote: import('#core/votes/vote-message.js').Vote, at: number }[]} items
     * @returns {Promise<string[]>} per vote: counted, changed, repeat, closed or unknown_option
     */
    async recordMany(index, items) {
      /** @type {Record<string, number>} */
      const puts = {};
      const keys = new Set();
      const outcomes = [];
      for (const { vote } of items) {
        const ledger = await ledgerFor(vote.key);
        // The seal decides, not a clock: the root seals SEAL_AFTER_CLOSE_MS after the close on the
        // venue's clock (vote-seal.js, venue-clock.js), and from then on nothing counts. A
        // lagging owner may first look the prompt up after the venue closed it: still open here.
        // The venue's rule for one vote (core/votes/vote-round.js): closed, unknown option, or the tally's answer.
        const outcome = ledger
          ? judgeVote({ accepting: !sealed.has(vote.key), optionIds: ledger.prompt.options, tally: ledger.tally }, vote)
          : 'closed';
        if (ledger && changesTally(outcome)) {
          puts[`${VOTE_PREFIX}${vote.key}:${vote.device}`] = ledger.prompt.options.indexOf(vote.option);
          keys.add(vote.key);
        }
        outcomes.push(outcome);
      }
      // One write per STORAGE_BATCH choices (the storage API's batch limit).
      const entries = Object.entries(puts);
      for (let i = 0; i < entries.length; i += STORAGE_BATCH) void storage.put(Object.fromEntries(entries.slice(i, i + STORAGE_BATCH)));
      for (const key of keys) report(index, key);
      return outcomes;
    },

    /**
     * Seal a prompt here and return this owner's final count of it (vote-seal.js). From now on
     * every vote for it is refused `closed`, here and after an eviction (the marker is stored).
     * @param {string} key
     * @returns {Promise<{ counts: number[], total: number }>}
     */
    async seal(key) {
      remember(key);
      await storage.put(`${SEAL_PREFIX}${key}`, true);
      // Nothing in memory (no vote yet, or evicted since): the stored choices are the count (as
      // many options as a prompt may have; the root keeps its prompt's).
      const tally = ledgers.get(key)?.tally ?? (await storedTally(key, SCORE_LIMITS.promptOptionsMax));
      return { counts: tally.counts(), total: tally.total() };
    },
  };
}

/**
 * Add up owners' counts option by option.
 * @param {Iterable<{ counts: number[], total: number }>} parts
 * @param {number} [options] the prompt's options (longer lists are cut, shorter ones padded); default: the longest list
 * @returns {{ counts: number[], total: number }}
 */
export function sumCounts(parts, options) {
  /** @type {number[]} */
  const counts = options === undefined ? [] : new Array(options).fill(0);
  let total = 0;
  for (const part of parts) {
    part.counts.forEach((n, i) => {
      if (options === undefined || i < options) counts[i] = (counts[i] ?? 0) + n;
    });
    total += part.total;
  }
  return { counts: Array.from(counts, (n) => n ?? 0), total };
}

/**
 * The root's side: every owner's latest totals per prompt, summed and sent to the venue at most
 * every TOTALS_INTERVAL_MS.
 * @param {{ send: (text: string) => void }} options send to the publisher
 */
export function createVoteTotals({ send }) {
  /** @type {string | null} */
  let key = null;
  /** @type {Map<number, { counts: number[], total: number }>} */
  let owners = new Map();
  let timer = null;
  let lastSent = 0;
  let reports = 0;

  const sum = () => sumCounts(owners.values());

  /** @type {string | null} the prompt whose final count went out (vote-seal.js): no more running totals for it */
  let finished = null;

  function flush() {
    timer = null;
    if (key === null || key === finished) return;
    lastSent = Date.now();
    send(JSON.stringify({ type: 'votes', key, ...sum() }));
  }

  let pendingTaps = 0;
  let tapTimer = null;
  let tapsTotal = 0;
  return {
    /**
     * Reaction taps a shard reported with a push result; sent on to the venue every TOTALS_INTERVAL_MS.
     * @param {number} n
     */
    taps(n) {
      pendingTaps += n;
      tapsTotal += n;
      tapTimer ??= setTimeout(() => {
        tapTimer = null;
        const batch = pendingTaps;
        pendingTaps = 0;
        if (batch > 0) send(JSON.stringify({ type: 'taps', n: batch }));
      }, TOTALS_INTERVAL_MS);
    },
    /**
     * @param {string} current the open prompt's key (reports for another are dropped)
     * @param {number} index
     * @param {string} reportKey
     * @param {unknown} counts
     * @param {unknown} total
     */
    report(current, index, reportKey, counts, total) {
      if (
        reportKey !== current ||
        !Array.isArray(counts) ||
        counts.length > SCORE_LIMITS.promptOptionsMax ||
        !counts.every((n) => Number.isSafeInteger(n) && n >= 0)
      )
        return false;
      if (key !== current) {
        key = current;
        owners = new Map();
      }
      owners.set(index, {
        counts: /** @type {number[]} */ (counts),
        total: Number.isSafeInteger(total) ? /** @type {number} */ (total) : 0,
      });
      reports += 1;
      if (!timer) timer = setTimeout(flush, Math.max(0, lastSent + TOTALS_INTERVAL_MS - Date.now()));
      return true;
    },
    /**
     * The edge's final count of a prompt (vote-seal.js): sent now, and running totals for it stop.
     * @param {{ key: string, counts: number[], total: number }} result
     */
    final(result) {
      finished = result.key;
      send(JSON.stringify({ type: 'votes', key: result.key, counts: result.counts, total: result.total, final: true }));
    },
    /** For /healthz?deep=1. */
    stats: () => ({ key, owners: owners.size, reports, ...sum(), taps: tapsTotal, final: finished }),
  };
}
