// Who the hub writes to (hub.js): every connected streaming client, grouped by the stream it
// reads so an update only walks over its own readers, and counted per transport for the
// viewer gauges and --max-clients (docs/README.md). Adding, removing and evicting a slow client
// happen here and nowhere else, so the counts cannot drift from the sets.

/**
 * @typedef {import('./hub.js').Sink} Sink
 * @typedef {import('./hub.js').StreamName} StreamName
 * @typedef {import('./hub.js').StreamTransport} StreamTransport
 */

/**
 * @param {{ metrics: import('../logs/metrics.js').Metrics }} options
 */
export function createSinkRegistry({ metrics }) {
  /** @type {Set<Sink>} */
  const sinks = new Set();
  /** @type {Record<StreamName, Set<Sink>>} */
  const groups = { full: new Set(), lean: new Set() };
  const counts = { ws: 0, sse: 0 };

  /**
   * @param {StreamTransport} transport
   * @param {number} delta
   */
  function count(transport, delta) {
    counts[transport] += delta;
    metrics.clients.set({ transport }, counts[transport]);
  }

  /** @param {Sink} sink */
  function remove(sink) {
    groups[sink.group].delete(sink);
    if (sinks.delete(sink) && sink.counted) count(sink.transport, -1);
  }

  return {
    /** @param {Sink} sink a client that joined (counted unless it is the console's latency probe) */
    add(sink) {
      sinks.add(sink);
      groups[sink.group].add(sink);
      if (!sink.counted) return;
      count(sink.transport, +1);
      metrics.joins.inc({ transport: sink.transport });
    },
    remove,
    /**
     * Close a client that stopped reading; it leaves the set at once, not when the close completes.
     * @param {Sink} sink
     */
    evict(sink) {
      metrics.slowClosed.inc({ transport: sink.transport });
      remove(sink);
      sink.close();
    },
    /** @param {Sink} sink whether it is still connected */
    has: (sink) => sinks.has(sink),
    /** Every connected client. */
    all: () => sinks.values(),
    /** @param {StreamName} group the clients of one stream */
    readersOf: (group) => groups[group].values(),
    /** Streaming viewers per transport (the latency probe is not one). */
    counts: () => ({ ws: counts.ws, sse: counts.sse }),
    /** Streaming viewers, all transports. */
    streaming: () => counts.ws + counts.sse,
    /** The most bytes any one client has waiting in the server (bounded by the slow-client rule). */
    maxBuffered() {
      let max = 0;
      for (const sink of sinks) max = Math.max(max, sink.out.writableLength ?? 0);
      return max;
    },
  };
}

/** @typedef {ReturnType<typeof createSinkRegistry>} SinkRegistry */
