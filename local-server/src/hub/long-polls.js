// The hub's long polls (docs/README.md, GET /poll?wait=MS): requests waiting for the next update of
// their stream, and the addresses that polled lately (a poller holds no socket, so "recently
// seen" is how it counts as a viewer for status and --max-clients).

/**
 * @typedef {'full' | 'lean'} StreamName
 * @typedef {{ since: number, group: StreamName, finish: (jsons: string[]) => void }} Waiter
 */

/** A poller counts as a viewer this long after its last request. */
export const POLLER_SEEN_MS = 10_000;

/**
 * @param {{ now: () => number }} options
 */
export function createLongPolls({ now }) {
  /** @type {Set<Waiter>} */
  const waiters = new Set();
  /** address → last seen */
  const pollers = new Map();

  return {
    /** @param {string} address */
    seen(address) {
      pollers.set(address, now());
    },
    /** Addresses that polled in the last POLLER_SEEN_MS. */
    count: () => pollers.size,
    /** Forget pollers not seen lately. */
    sweep() {
      const t = now();
      for (const [address, seen] of pollers) if (t - seen > POLLER_SEEN_MS) pollers.delete(address);
    },
    /**
     * Wait for the next update after `since` on `group`: resolves with its envelopes, or [] when
     * `waitMs` passes or the request goes away first.
     * @param {{ since: number, group: StreamName, waitMs: number, signal: AbortSignal }} request
     * @returns {Promise<string[]>}
     */
    wait({ since, group, waitMs, signal }) {
      return new Promise((resolve) => {
        /** @type {Waiter} */
        const waiter = {
          since,
          group,
          finish(result) {
            clearTimeout(timer);
            waiters.delete(waiter);
            signal.removeEventListener('abort', onAbort);
            resolve(result);
          },
        };
        const onAbort = () => waiter.finish([]);
        const timer = setTimeout(() => waiter.finish([]), waitMs);
        signal.addEventListener('abort', onAbort);
        waiters.add(waiter);
      });
    },
    /**
     * A stream moved on: every poll waiting on it gets what it missed (or the snapshot).
     * @param {StreamName} group
     * @param {import('#core/stream/state-stream.js').StateStream} source
     */
    answer(group, source) {
      for (const waiter of waiters) {
        if (waiter.group !== group) continue;
        waiter.finish(source.deltasSince(waiter.since) ?? [source.snapshot().json]);
      }
    },
    /** Answer every waiting poll with [] (shutting down). */
    close() {
      for (const waiter of waiters) waiter.finish([]);
    },
  };
}

/**
 * The envelopes one poll gets (docs/reference/audience-protocol.md#endpoints): a snapshot without `since` or when the
 * replay window no longer holds it (counted as a resync), the deltas after `since`, or — with
 * `waitMs` and nothing new — the next update once it exists ([] when the wait ends first).
 * @param {object} request
 * @param {import('#core/stream/state-stream.js').StateStream} request.stream the stream it reads
 * @param {StreamName} request.group
 * @param {number | null} request.since
 * @param {number} request.waitMs
 * @param {AbortSignal} request.signal
 * @param {ReturnType<typeof createLongPolls>} request.longPolls
 * @param {import('../logs/metrics.js').Metrics} request.metrics
 * @returns {Promise<string[]>}
 */
export function pollEnvelopes({ stream, group, since, waitMs, signal, longPolls, metrics }) {
  if (since === null) return Promise.resolve([stream.snapshot().json]);
  const jsons = stream.deltasSince(since);
  if (jsons === null) {
    metrics.resyncs.inc({ transport: 'poll', reason: 'resume_outside_window' });
    return Promise.resolve([stream.snapshot().json]);
  }
  if (jsons.length > 0 || waitMs <= 0) return Promise.resolve(jsons);
  return longPolls.wait({ since, group, waitMs, signal });
}
