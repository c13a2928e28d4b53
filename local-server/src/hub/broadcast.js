// One update to every reader of a stream (hub.js): the envelope is encoded once per encoding
// (a pre-built WebSocket frame, the same compressed once, an SSE event) and the same bytes are
// written to each socket; a client stuck past the stale timeout is evicted on the way. Counts
// messages, bytes, drops and the time the walk took.

import { performance } from 'node:perf_hooks';
import { ENCODERS } from './sink-writer.js';

/**
 * @typedef {import('./hub.js').Encoding} Encoding
 * @typedef {import('./hub.js').StreamName} StreamName
 * @typedef {import('./hub.js').StreamTransport} StreamTransport
 */

/** @type {Encoding[]} */
const ENCODINGS = ['ws', 'wsz', 'sse'];

/**
 * @param {object} options
 * @param {import('./sink-registry.js').SinkRegistry} options.registry
 * @param {(sink: import('./hub.js').Sink, bytes: Buffer) => boolean} options.deliver the sink writer's deliver
 * @param {(group: StreamName) => void} options.answerPolls answer the stream's waiting long polls
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {() => number} options.now
 * @param {number} options.staleTimeoutMs
 * @returns {(seq: number, json: string, group?: StreamName) => void}
 */
export function createBroadcast({ registry, deliver, answerPolls, metrics, now, staleTimeoutMs }) {
  return function broadcast(seq, json, group = 'full') {
    const started = performance.now();
    /** @type {Record<Encoding, Buffer | null>} */
    const frames = { ws: null, wsz: null, sse: null };
    const sent = { ws: 0, wsz: 0, sse: 0 };
    const dropped = { ws: 0, sse: 0 };
    const t = now();
    for (const sink of registry.readersOf(group)) {
      const bytes = (frames[sink.encoding] ??= ENCODERS[sink.encoding](seq, json));
      if (deliver(sink, bytes)) sent[sink.encoding] += 1;
      else if (sink.stale && t - sink.staleSince > staleTimeoutMs) registry.evict(sink);
      else dropped[sink.transport] += 1;
    }
    for (const encoding of ENCODINGS) {
      const transport = encoding === 'sse' ? 'sse' : 'ws';
      if (sent[encoding]) {
        metrics.messages.inc({ transport }, sent[encoding]);
        metrics.bytes.inc({ transport }, sent[encoding] * /** @type {Buffer} */ (frames[encoding]).length);
      }
    }
    for (const transport of /** @type {StreamTransport[]} */ (['ws', 'sse']))
      if (dropped[transport]) metrics.dropped.inc({ transport }, dropped[transport]);
    answerPolls(group);
    if (group === 'full') metrics.seq.set(seq);
    metrics.fanout.observe((performance.now() - started) / 1000);
  };
}
