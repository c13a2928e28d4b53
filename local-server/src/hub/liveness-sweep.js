// The hub's periodic liveness pass (hub.js): WebSocket pings (a socket that did not answer the
// last one is half-open and gets closed), SSE heartbeat comments, slow clients stuck past the
// stale timeout evicted, and long-poll addresses not seen lately forgotten.

import { SSE_HEARTBEAT } from '#core/protocol/sse.js';

/**
 * @param {object} options
 * @param {import('./sink-registry.js').SinkRegistry} options.registry
 * @param {(sink: import('./hub.js').Sink, bytes: Buffer) => boolean} options.deliver
 * @param {() => void} options.sweepPolls
 * @param {() => number} options.now
 * @param {number} options.staleTimeoutMs
 * @param {number} options.sweepMs
 * @returns {() => void} stops the sweep
 */
export function startLivenessSweep({ registry, deliver, sweepPolls, now, staleTimeoutMs, sweepMs }) {
  const timer = setInterval(() => {
    const t = now();
    for (const sink of registry.all()) {
      if (sink.stale && t - sink.staleSince > staleTimeoutMs) registry.evict(sink);
      else if (sink.transport === 'ws') {
        if (!sink.alive) sink.close();
        else {
          sink.alive = false;
          sink.ws.ping();
        }
      } else deliver(sink, Buffer.from(SSE_HEARTBEAT));
    }
    sweepPolls();
  }, sweepMs);
  timer.unref();
  return () => clearInterval(timer);
}
