// Beats, view changes and audio cues arrive ahead of time (~300 ms) stamped with the server time
// at which they happen (`at`). Showing them on arrival would put every phone's network delay on
// screen; instead each waits in a small queue and is released when the synced clock reaches `at`.
//
// A newer item of the same kind that is due no later than a queued one means the server changed
// its mind (seek, stop, tempo change): the queued later ones are dropped so the display can never
// run ahead of what the server now says.
//
// Adding is idempotent per item: every key released is remembered (the last few hundred per
// kind), not only the last one. The page re-adds the whole window of views sent ahead whenever
// `ahead` changes (a later chunk arriving in pieces, a seek, a loop's next pass); an older view
// already shown must not be queued again, or it would be released after the newer one and the
// page would end on a stale view.

/**
 * @template T
 * @typedef {object} ScheduledItem
 * @property {string} kind e.g. 'position' | 'view' | 'audio'
 * @property {number} at server ms when it happens
 * @property {string} key identity, so a resent item (snapshot after a resync) is not shown twice
 * @property {T} payload
 * @property {number} [late] ms past `at` when released
 */

/**
 * @typedef {object} BeatSchedule
 * @property {(kind: string, at: number, key: string, payload: any) => boolean} add queue an item; false when it duplicates a queued or an already released item of its kind
 * @property {(serverNow: number) => Array<ScheduledItem<any>>} due release what is due, oldest first; for collapsing kinds only the newest due item (the others were missed)
 * @property {() => number | null} nextAt server time of the earliest queued item
 * @property {(kind?: string) => void} clear drop queued items (all kinds or one) and forget what was released
 * @property {() => number} size
 */

/**
 * @param {object} [options]
 * @param {number} [options.limit] queued items per kind (default 32; oldest dropped beyond); released keys remembered per kind: 4 × limit
 * @param {string[]} [options.collapse] kinds where only the newest due item matters (default position, view)
 * @returns {BeatSchedule}
 */
export function createBeatSchedule(options = {}) {
  const limit = options.limit ?? 32;
  const collapse = new Set(options.collapse ?? ['position', 'view']);
  /** @type {Map<string, Array<ScheduledItem<any>>>} */
  const queues = new Map();
  /** @type {Map<string, Set<string>>} keys released, per kind, oldest first (bounded) */
  const released = new Map();
  const rememberLimit = limit * 4;

  /** Remember that `key` of `kind` was released (shown, or passed over by a newer one). */
  const remember = (kind, key) => {
    let keys = released.get(kind);
    if (!keys) {
      keys = new Set();
      released.set(kind, keys);
    }
    keys.delete(key);
    keys.add(key);
    if (keys.size > rememberLimit) keys.delete(keys.values().next().value);
  };

  const queueOf = (kind) => {
    let q = queues.get(kind);
    if (!q) {
      q = [];
      queues.set(kind, q);
    }
    return q;
  };

  return {
    add(kind, at, key, payload) {
      if (!Number.isFinite(at)) return false;
      const q = queueOf(kind);
      if (released.get(kind)?.has(key) || q.some((item) => item.key === key)) return false;
      // Superseded: anything of this kind not yet due that would come at or after the new item.
      for (let i = q.length - 1; i >= 0; i -= 1) if (q[i].at >= at) q.splice(i, 1);
      q.push({ kind, at, key, payload });
      if (q.length > limit) q.shift();
      return true;
    },
    due(serverNow) {
      /** @type {Array<ScheduledItem<any>>} */
      const out = [];
      for (const [kind, q] of queues) {
        let n = 0;
        while (n < q.length && q[n].at <= serverNow) n += 1;
        if (n === 0) continue;
        const ready = q.splice(0, n);
        const chosen = collapse.has(kind) ? [ready[ready.length - 1]] : ready;
        for (const item of chosen) out.push({ ...item, late: serverNow - item.at });
        // Every due item counts as released: the ones a collapsing kind passed over too.
        for (const item of ready) remember(kind, item.key);
      }
      return out.sort((a, b) => a.at - b.at);
    },
    nextAt() {
      let min = null;
      for (const q of queues.values()) if (q.length && (min === null || q[0].at < min)) min = q[0].at;
      return min;
    },
    clear(kind) {
      if (kind === undefined) {
        queues.clear();
        released.clear();
      } else {
        queues.delete(kind);
        released.delete(kind);
      }
    },
    size: () => [...queues.values()].reduce((n, q) => n + q.length, 0),
  };
}
