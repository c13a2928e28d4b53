// Fan-out of the state stream to every connected viewer. Each update is encoded once per
// transport (a pre-built WebSocket frame, an SSE event) and the same bytes are written to every
// socket. A client whose socket stops draining is marked stale: its deltas are skipped (counted
// as dropped) and it receives one fresh snapshot when it drains, or it is closed after a timeout.
// Nothing a client does can block or slow the loop for the others.

import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { SSE_HEARTBEAT } from '#core/protocol/sse.js';
import { rawSocketOf } from './ws-frame.js';
import { createLongPolls } from './long-polls.js';
import { ENCODERS, createSinkWriter } from './sink-writer.js';

/**
 * @typedef {'ws' | 'sse'} StreamTransport
 * @typedef {'full' | 'lean'} StreamName which state stream a client reads (README.md, `?stream=`)
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
 * @property {boolean} counted false for the console's latency probe: not a viewer (README.md, --max-clients)
 * @property {any} [ws]
 */

/**
 * @param {object} options
 * @param {import('#core/stream/state-stream.js').StateStream} options.stream the full stream
 * @param {import('#core/stream/state-stream.js').StateStream} [options.leanStream] the lean stream (`?stream=lean`); the full one when absent
 * @param {import('../metrics.js').Metrics} options.metrics
 * @param {() => number} options.now
 * @param {number} [options.maxBufferedBytes] unsent bytes beyond which a client counts as slow
 * @param {number} [options.staleTimeoutMs] how long a slow client may stay stuck before it is closed
 * @param {number} [options.sweepMs] liveness/heartbeat period
 */
export function createHub({ stream, leanStream, metrics, now, maxBufferedBytes = 256 * 1024, staleTimeoutMs = 30_000, sweepMs = 15_000 }) {
  /** @type {Set<Sink>} */
  const sinks = new Set();
  /** @type {Record<StreamName, import('#core/stream/state-stream.js').StateStream>} */
  const streams = { full: stream, lean: leanStream ?? stream };
  /** Clients per stream, so each update is only walked over by the clients that read it. */
  /** @type {Record<StreamName, Set<Sink>>} */
  const groups = { full: new Set(), lean: new Set() };
  /** @param {StreamName} group */
  const groupOf = (group) => (leanStream ? group : 'full');
  const counts = { ws: 0, sse: 0 };
  const longPolls = createLongPolls({ now });


  function count(transport, delta) {
    counts[transport] += delta;
    metrics.clients.set({ transport }, counts[transport]);
  }

  const { deliver, sendOne } = createSinkWriter({ metrics, now, maxBufferedBytes, onDrained: (sink) => catchUp(sink) });

  /** A slow client drained: send it the current snapshot instead of the deltas it missed. */
  function catchUp(sink) {
    if (!sinks.has(sink)) return;
    sink.stale = false;
    const snap = streams[sink.group].snapshot();
    metrics.resyncs.inc({ transport: sink.transport, reason: 'slow' });
    sendOne(sink, snap.seq, snap.json);
  }

  function add(sink) {
    sinks.add(sink);
    groups[sink.group].add(sink);
    if (!sink.counted) return;
    count(sink.transport, +1);
    metrics.joins.inc({ transport: sink.transport });
  }

  function remove(sink) {
    groups[sink.group].delete(sink);
    if (sinks.delete(sink) && sink.counted) count(sink.transport, -1);
  }

  /** Close a client that stopped reading; it leaves the set at once, not when the close completes. */
  function evict(sink) {
    metrics.slowClosed.inc({ transport: sink.transport });
    remove(sink);
    sink.close();
  }

  /**
   * Send the same envelope bytes to every streaming client of one stream and answer its waiting polls.
   * @param {number} seq
   * @param {string} json
   * @param {StreamName} [group]
   */
  function broadcast(seq, json, group = 'full') {
    const started = performance.now();
    /** @type {Record<Encoding, Buffer | null>} */
    const frames = { ws: null, wsz: null, sse: null };
    const sent = { ws: 0, wsz: 0, sse: 0 };
    const dropped = { ws: 0, sse: 0 };
    const t = now();
    for (const sink of groups[group]) {
      const bytes = (frames[sink.encoding] ??= ENCODERS[sink.encoding](seq, json));
      if (deliver(sink, bytes)) sent[sink.encoding] += 1;
      else if (sink.stale && t - sink.staleSince > staleTimeoutMs) evict(sink);
      else dropped[sink.transport] += 1;
    }
    for (const encoding of /** @type {Encoding[]} */ (['ws', 'wsz', 'sse'])) {
      const transport = encoding === 'sse' ? 'sse' : 'ws';
      if (sent[encoding]) {
        metrics.messages.inc({ transport }, sent[encoding]);
        metrics.bytes.inc({ transport }, sent[encoding] * /** @type {Buffer} */ (frames[encoding]).length);
      }
    }
    for (const transport of /** @type {StreamTransport[]} */ (['ws', 'sse'])) if (dropped[transport]) metrics.dropped.inc({ transport }, dropped[transport]);
    longPolls.answer(group, streams[group]);
    if (group === 'full') metrics.seq.set(seq);
    metrics.fanout.observe((performance.now() - started) / 1000);
  }

  /** Periodic liveness: WS pings (half-open sockets get closed), SSE comments, stuck clients. */
  const sweep = setInterval(() => {
    const t = now();
    for (const sink of sinks) {
      if (sink.stale && t - sink.staleSince > staleTimeoutMs) evict(sink);
      else if (sink.transport === 'ws') {
        if (!sink.alive) sink.close();
        else {
          sink.alive = false;
          sink.ws.ping();
        }
      } else deliver(sink, Buffer.from(SSE_HEARTBEAT));
    }
    longPolls.sweep();
  }, sweepMs);
  sweep.unref();

  return {
    /**
     * Register an open WebSocket; sends the snapshot first.
     * @param {import('ws').WebSocket} ws
     * @param {StreamName} [requested] the stream asked for (the full one when there is no lean stream)
     * @param {{ counted?: boolean }} [options] counted: false for the console's latency probe
     * @returns {Sink}
     */
    addWebSocket(ws, requested = /** @type {StreamName} */ ('full'), { counted = true } = {}) {
      const group = groupOf(requested);
      // permessage-deflate is only negotiated on the lean stream (routes/ws.js).
      const { socket, deflate } = rawSocketOf(ws);
      /** @type {Sink} */
      const sink = {
        transport: 'ws', group, encoding: deflate ? 'wsz' : 'ws', out: socket, stale: false, staleSince: 0, alive: true, ws, counted,
        close: () => ws.terminate(),
      };
      ws.on('pong', () => { sink.alive = true; });
      ws.once('close', () => remove(sink));
      add(sink);
      const snap = streams[group].snapshot();
      sendOne(sink, snap.seq, snap.json);
      return sink;
    },

    /** A viewer asked for a fresh snapshot (it saw a gap or a new epoch). */
    resync(sink, reason = 'request') {
      metrics.resyncs.inc({ transport: sink.transport, reason });
      const snap = streams[sink.group].snapshot();
      sendOne(sink, snap.seq, snap.json);
    },

    /**
     * Register an SSE response (headers already written). Resumes after `since` when the replay
     * window still holds it, otherwise starts with a snapshot.
     * @param {import('node:http').ServerResponse} res
     * @param {number | null} since
     * @param {StreamName} [requested] the stream asked for (the full one when there is no lean stream)
     */
    addEventStream(res, since, requested = /** @type {StreamName} */ ('full')) {
      const group = groupOf(requested);
      const stream = streams[group];
      /** @type {Sink} */
      const sink = {
        transport: 'sse', group, encoding: 'sse', out: /** @type {any} */ (res), stale: false, staleSince: 0, alive: true, counted: true,
        close: () => res.destroy(),
      };
      res.once('close', () => remove(sink));
      add(sink);
      const missed = since === null ? null : stream.deltasSince(since);
      if (missed) {
        const base = /** @type {number} */ (since);
        missed.forEach((json, i) => sendOne(sink, base + i + 1, json));
      } else {
        if (since !== null) metrics.resyncs.inc({ transport: 'sse', reason: 'resume_outside_window' });
        const snap = stream.snapshot();
        sendOne(sink, snap.seq, snap.json);
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
      const stream = streams[group];
      longPolls.seen(address);
      if (since === null) return Promise.resolve([stream.snapshot().json]);
      const jsons = stream.deltasSince(since);
      if (jsons === null) {
        metrics.resyncs.inc({ transport: 'poll', reason: 'resume_outside_window' });
        return Promise.resolve([stream.snapshot().json]);
      }
      if (jsons.length > 0 || waitMs <= 0) return Promise.resolve(jsons);
      return longPolls.wait({ since, group, waitMs, signal });
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
      const poll = longPolls.count();
      return { ws: counts.ws, sse: counts.sse, poll, total: counts.ws + counts.sse + poll };
    },

    /** The most bytes any one client has waiting in the server (bounded by the slow-client rule). */
    maxBuffered() {
      let max = 0;
      for (const sink of sinks) max = Math.max(max, sink.out.writableLength ?? 0);
      return max;
    },

    /** What --max-clients limits: WebSocket and SSE viewers plus addresses that polled in the last 10 s. */
    viewers: () => counts.ws + counts.sse + longPolls.count(),

    close() {
      clearInterval(sweep);
      longPolls.close();
      for (const sink of sinks) {
        if (sink.transport === 'ws') sink.ws.close(1001, 'server shutting down');
        else sink.close();
      }
    },

    isOpen: (ws) => ws.readyState === WebSocket.OPEN,
  };
}
