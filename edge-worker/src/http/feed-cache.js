// The Worker's per-isolate copy of the root's snapshot and replay window, refreshed at most
// every FEED_TTL_MS. SSE streams and long polls read it, so thousands of them in one isolate
// cost the root a few RPCs per second, and no shard is kept awake for them.
//
// Only plain strings and numbers are shared between requests: a promise or stream created by
// one request must not be awaited or written by another (workerd forbids cross-request I/O).

import { deltasAfter } from '#core/stream/catch-up.js';

/**
 * @typedef {{ epoch: string | null, seq: number | null, rev: number, snapshot: string | null,
 *   deltas: { seq: number, json: string }[], venue: { status: string, since: number }, clockOffset: number }} Feed
 *   clockOffset: edge − venue clock (venue-clock.js): GET /time answers on the venue's clock
 */

/** A refresh that has not finished after this long is presumed abandoned (its request went away). */
const REFRESH_TIMEOUT_MS = 2000;
/** How often a request waiting for another request's refresh looks again (ms). */
const WAIT_STEP_MS = 5;

/**
 * @param {object} options
 * @param {number} options.ttlMs
 * @param {number} options.limit deltas kept
 * @param {'full' | 'lean'} [options.stream] which of the root's streams it copies (docs/reference/audience-protocol.md#endpoints)
 */
export function createFeedCache({ ttlMs, limit, stream = 'full' }) {
  /** @type {Feed} */
  let feed = { epoch: null, seq: null, rev: -1, snapshot: null, deltas: [], venue: { status: 'none', since: 0 }, clockOffset: 0 };
  let fetchedAt = 0;
  let refreshingSince = 0;

  /** @param {any} root */
  async function refresh(root) {
    refreshingSince = Date.now();
    try {
      const reply = await root.feed(feed.epoch, feed.seq, stream);
      if (reply.rev < feed.rev) return; // an older answer raced a newer one
      const deltas = reply.full ? reply.deltas : feed.deltas.concat(reply.deltas);
      const venue = { status: String(reply.venue?.status ?? 'none'), since: Number(reply.venue?.since ?? 0) };
      const clockOffset = Number.isFinite(reply.clockOffset) ? reply.clockOffset : 0;
      feed = {
        epoch: reply.epoch,
        seq: reply.seq,
        rev: reply.rev,
        snapshot: reply.snapshot,
        deltas: deltas.slice(-limit),
        venue,
        clockOffset,
      };
      fetchedAt = Date.now();
    } finally {
      refreshingSince = 0;
    }
  }

  return {
    /**
     * The feed, refreshed first when stale and nobody else is refreshing it.
     * @param {any} root the root object's stub
     * @returns {Promise<Feed>}
     */
    async current(root) {
      const busy = () => refreshingSince !== 0 && Date.now() - refreshingSince < REFRESH_TIMEOUT_MS;
      if (Date.now() - fetchedAt < ttlMs) return feed;
      // Another request is refreshing: wait for its answer rather than hand out the copy before it,
      // which right after a start is the root's "no show yet" (its promise cannot be shared: see
      // above; this request looks again every few ms, at most until the refresh counts as abandoned).
      while (busy()) await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      if (Date.now() - fetchedAt >= ttlMs) await refresh(root);
      return feed;
    },
    /**
     * Envelopes a client at `since` needs: [] when current, deltas when in the window, else the snapshot.
     * @param {Feed} f
     * @param {number | null} since
     * @returns {{ seq: number, json: string }[]}
     */
    after(f, since) {
      if (f.snapshot === null || f.seq === null) return [];
      return deltasAfter(f.deltas, since, f.seq) ?? [{ seq: f.seq, json: f.snapshot }];
    },
  };
}
