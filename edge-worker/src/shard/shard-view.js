// What a shard knows of its show (docs/explanation/edge-design.md#shards-srcshardshardjs-class-shard): the latest snapshot of each
// stream, for joiners and resyncs, and the venue clock's offset, for pongs. It comes from the
// root: by an `attach` when the shard gets a viewer and has nothing (joiners arriving together
// share one RPC), then with every push. After hibernation it is empty again and is asked anew.

/** The clock offset is stored again when it moved this much (ms). */
const CLOCK_SAVE_STEP_MS = 5;

/**
 * @typedef {import('./viewer-streams.js').StreamName} StreamName
 * @typedef {{ rev: number, snapshot: string | null, leanRev: number, leanSnapshot: string | null, clockOffset?: number }} ShowSnapshots
 *   what an attach reply and a push carry alike
 */

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the shard's storage (the clock offset, for a wake-up)
 * @param {(viewers: number) => Promise<ShowSnapshots>} options.attach register with the root
 */
export function createShardView({ storage, attach }) {
  let attached = false;
  /** @type {Record<StreamName, { rev: number, json: string } | null>} */
  const latest = { full: null, lean: null };
  /** @type {Promise<void> | null} */
  let attaching = null;
  /**
   * Edge time − venue time (venue-clock.js): pongs carry the venue's clock, as every time in the
   * state does. Undefined after a wake-up until read from storage.
   * @type {number | undefined}
   */
  let clockOffset;

  /**
   * @param {StreamName} stream
   * @param {number} rev
   * @param {string | null | undefined} snapshot
   */
  function adopt(stream, rev, snapshot) {
    const known = latest[stream];
    if (snapshot && (!known || rev >= known.rev)) latest[stream] = { rev, json: snapshot };
  }

  /** @param {ShowSnapshots} from */
  function take(from) {
    attached = true;
    adopt('full', from.rev, from.snapshot);
    adopt('lean', from.leanRev, from.leanSnapshot);
    const offset = from.clockOffset;
    if (typeof offset !== 'number' || !Number.isFinite(offset)) return;
    const moved = clockOffset === undefined || Math.abs(offset - clockOffset) >= CLOCK_SAVE_STEP_MS;
    clockOffset = offset;
    if (moved) void storage.put('clockOffset', offset);
  }

  return {
    /**
     * The latest snapshot envelope of a stream, or null.
     * @param {StreamName} stream
     */
    snapshot: (stream) => latest[stream]?.json ?? null,

    /**
     * Attach unless this stream's snapshot is here: a shard woken by a push has the full snapshot
     * but not necessarily the lean one (it is only pushed when it changed).
     * @param {StreamName} stream
     * @param {number} viewers reported to the root
     */
    async ensure(stream, viewers) {
      if (attached && latest[stream]) return;
      attaching ??= attach(viewers)
        .then(take)
        .finally(() => {
          attaching = null;
        });
      await attaching;
    },

    /** @param {ShowSnapshots} batch a push from the root */
    take,

    /**
     * After a push found no viewers the root drops this shard and the next joiner attaches again;
     * a joiner waiting for its attach reply counts as a viewer.
     * @param {number} viewers
     * @returns {boolean} a joiner is waiting
     */
    settle(viewers) {
      const joining = attaching !== null;
      if (viewers === 0 && !joining) attached = false;
      return joining;
    },

    /** The venue's clock, now (ms): what a pong says. */
    async venueNow() {
      if (clockOffset === undefined) {
        const stored = await storage.get('clockOffset');
        clockOffset ??= typeof stored === 'number' && Number.isFinite(stored) ? stored : 0;
      }
      return Date.now() - clockOffset;
    },
  };
}
