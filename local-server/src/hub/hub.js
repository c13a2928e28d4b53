// Fan-out of the state stream to every connected viewer: this file joins clients (WebSocket,
// SSE, poll) and wires the parts — sink-registry.js (who is connected), broadcast.js (one update
// encoded once per transport, the same bytes to every socket), sink-writer.js (slow clients),
// liveness-sweep.js (pings, heartbeats), long-polls.js. A client whose socket stops draining is
// marked stale: its deltas are skipped (counted as dropped) and it receives one fresh snapshot
// when it drains, or it is closed after a timeout. Nothing a client does can block or slow the
// loop for the others.

import { WebSocket } from 'ws';
import { eventStreamSink, webSocketSink } from './sinks.js';
import { createLongPolls, pollEnvelopes } from './long-polls.js';
import { createSinkWriter } from './sink-writer.js';
import { createSinkRegistry } from './sink-registry.js';
import { createBroadcast } from './broadcast.js';
import { startLivenessSweep } from './liveness-sweep.js';

/**
 * @typedef {'ws' | 'sse'} StreamTransport
 * @typedef {'full' | 'lean'} StreamName which state stream a client reads (docs/reference/audience-protocol.md#endpoints)
 * @typedef {'ws' | 'wsz' | 'sse'} Encoding wsz = WebSocket frame compressed once (permessage-deflate, no context takeover)
 * @typedef {object} Sink one connected streaming client
 * @property {StreamTransport} transport
 * @property {StreamName} group
 * @property {Encoding} encoding
 * @property {{ writableLength: number, write: (b: Buffer) => unknown, once: Function, destroyed?: boolean }} out where bytes go
 * @property {() => void} close
 * @property {boolean} stale
 * @property {number} staleSince
 * @property {boolean} alive for WS liveness pings
 * @property {boolean} counted false for the console's latency probe: not a viewer (docs/reference/cli.md#tutti-serve-flags)
 * @property {any} [ws]
 */

/**
 * An event stream resuming after `since`: the deltas it missed, when the replay window still holds them.
 * @param {import('#core/stream/state-stream.js').StateStream} stream the sink's stream
 * @param {Sink} sink
 * @param {number | null} since
 * @param {(sink: Sink, seq: number, json: string) => void} sendOne
 * @returns {boolean} false: nothing to resume from (a snapshot is due)
 */
function sendMissed(stream, sink, since, sendOne) {
  if (since === null) return false;
  const missed = stream.deltasSince(since);
  if (!missed) return false;
  missed.forEach((json, i) => sendOne(sink, since + i + 1, json));
  return true;
}

/**
 * @param {object} options
 * @param {import('#core/stream/state-stream.js').StateStream} options.stream the full stream
 * @param {import('#core/stream/state-stream.js').StateStream} [options.leanStream] the lean stream (`?stream=lean`); the full one when absent
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {() => number} options.now
 * @param {number} [options.maxBufferedBytes] unsent bytes beyond which a client counts as slow
 * @param {number} [options.staleTimeoutMs] how long a slow client may stay stuck before it is closed
 * @param {number} [options.sweepMs] liveness/heartbeat period
 */
export function createHub({ stream, leanStream, metrics, now, maxBufferedBytes = 256 * 1024, staleTimeoutMs = 30_000, sweepMs = 15_000 }) {
  /** @type {Record<StreamName, import('#core/stream/state-stream.js').StateStream>} */
  const streams = { full: stream, lean: leanStream ?? stream };
  /** @param {StreamName} group */
  const groupOf = (group) => (leanStream ? group : 'full');
  const registry = createSinkRegistry({ metrics });
  const longPolls = createLongPolls({ now });
  const { deliver, sendOne } = createSinkWriter({ metrics, now, maxBufferedBytes, onDrained: (sink) => catchUp(sink) });
  const broadcast = createBroadcast({
    registry,
    deliver,
    answerPolls: (group) => longPolls.answer(group, streams[group]),
    metrics,
    now,
    staleTimeoutMs,
  });
  const stopSweep = startLivenessSweep({ registry, deliver, sweepPolls: () => longPolls.sweep(), now, staleTimeoutMs, sweepMs });

  /** @param {Sink} sink the current snapshot of its stream, counted (a join, a resync, a catch-up) */
  function sendSnapshot(sink) {
    const snap = streams[sink.group].snapshot();
    sendOne(sink, snap.seq, snap.json);
  }

  /** A slow client drained: send it the current snapshot instead of the deltas it missed. */
  function catchUp(sink) {
    if (!registry.has(sink)) return;
    sink.stale = false;
    metrics.resyncs.inc({ transport: sink.transport, reason: 'slow' });
    sendSnapshot(sink);
  }

  return {
    /**
     * Register an open WebSocket; sends the snapshot first.
     * @param {import('ws').WebSocket} ws
     * @param {StreamName} [requested] the stream asked for (the full one when there is no lean stream)
     * @param {{ counted?: boolean }} [options] counted: false for the console's latency probe
     * @returns {Sink}
     */
    addWebSocket(ws, requested = /** @type {StreamName} */ ('full'), { counted = true } = {}) {
      const sink = webSocketSink(ws, groupOf(requested), counted, registry.remove);
      registry.add(sink);
      sendSnapshot(sink);
      return sink;
    },

    /** A viewer asked for a fresh snapshot (it saw a gap or a new epoch). */
    resync(sink, reason = 'request') {
      metrics.resyncs.inc({ transport: sink.transport, reason });
      sendSnapshot(sink);
    },

    /**
     * Register an SSE response (headers already written). Resumes after `since` when the replay
     * window still holds it, otherwise starts with a snapshot.
     * @param {import('node:http').ServerResponse} res
     * @param {number | null} since
     * @param {StreamName} [requested] the stream asked for (the full one when there is no lean stream)
     */
    addEventStream(res, since, requested = /** @type {StreamName} */ ('full')) {
      const sink = eventStreamSink(res, groupOf(requested), registry.remove);
      registry.add(sink);
      if (!sendMissed(streams[sink.group], sink, since, sendOne)) {
        if (since !== null) metrics.resyncs.inc({ transport: 'sse', reason: 'resume_outside_window' });
        sendSnapshot(sink);
      }
      return sink;
    },

    /**
     * Envelopes for a poll: deltas after `since`, a snapshot when needed, or — with `waitMs` —
     * the next update once it exists ([] when the wait ends first).
     * @param {number | null} since
     * @param {number} waitMs
     * @param {string} address who polls (for the viewer count)
     * @param {AbortSignal} signal aborts the wait when the request closes
     * @param {StreamName} [requested] the stream asked for (the full one when there is no lean stream)
     * @returns {Promise<string[]>} serialized envelopes
     */
    poll(since, waitMs, address, signal, requested = /** @type {StreamName} */ ('full')) {
      const group = groupOf(requested);
      longPolls.seen(address);
      return pollEnvelopes({ stream: streams[group], group, since, waitMs, signal, longPolls, metrics });
    },

    broadcast,

    /** Everyone gets the current snapshot of their stream (new score / new epoch). */
    broadcastSnapshot() {
      for (const group of /** @type {StreamName[]} */ (['full', 'lean'])) {
        if (group === 'lean' && streams.lean === streams.full) continue;
        const snap = streams[group].snapshot();
        broadcast(snap.seq, snap.json, group);
      }
    },

    counts() {
      const { ws, sse } = registry.counts();
      const poll = longPolls.count();
      return { ws, sse, poll, total: ws + sse + poll };
    },

    /** The most bytes any one client has waiting in the server (bounded by the slow-client rule). */
    maxBuffered: registry.maxBuffered,

    /** What --max-clients limits: WebSocket and SSE viewers plus addresses that polled in the last 10 s. */
    viewers: () => registry.streaming() + longPolls.count(),

    close() {
      stopSweep();
      longPolls.close();
      for (const sink of registry.all()) {
        if (sink.transport === 'ws') sink.ws.close(1001, 'server shutting down');
        else sink.close();
      }
    },

    isOpen: (ws) => ws.readyState === WebSocket.OPEN,
  };
}
