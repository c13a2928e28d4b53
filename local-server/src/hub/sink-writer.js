// Writing to one viewer's socket without letting it slow anyone else (docs/results.md#how-fast-how-small)
// : bytes go out only while the socket drains; a socket that stops draining is marked
// stale and skipped until it drains again, when the hub sends it a fresh snapshot instead of
// the deltas it missed.

import { formatSseEvent } from '#core/protocol/sse.js';
import { encodeTextFrame, encodeLeanFrame } from './ws-frame.js';

/**
 * @typedef {import('./hub.js').Sink} Sink
 * @typedef {import('./hub.js').Encoding} Encoding
 */

/** Each envelope's bytes per encoding: a WebSocket frame, the same compressed once (from 1 KiB, ws-frame.js), an SSE event. */
export const ENCODERS = Object.freeze({
  ws: (/** @type {number} */ _seq, /** @type {string} */ json) => encodeTextFrame(json),
  wsz: (/** @type {number} */ _seq, /** @type {string} */ json) => encodeLeanFrame(json),
  sse: (/** @type {number} */ seq, /** @type {string} */ json) => Buffer.from(formatSseEvent(seq, json)),
});

/**
 * @param {object} options
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {() => number} options.now
 * @param {number} options.maxBufferedBytes unsent bytes beyond which a client counts as slow
 * @param {(sink: Sink) => void} options.onDrained a stale sink drained: it needs a snapshot
 */
export function createSinkWriter({ metrics, now, maxBufferedBytes, onDrained }) {
  // The last encoded envelope per encoding: every viewer joining (or resyncing) at the same seq
  // shares one ≈18 KB snapshot buffer instead of allocating its own, which fragmented memory.
  /** @type {Record<Encoding, { json: string | null, bytes: Buffer | null }>} */
  const lastEncoded = { ws: { json: null, bytes: null }, wsz: { json: null, bytes: null }, sse: { json: null, bytes: null } };

  /**
   * Write bytes unless the client is slow; returns whether they were written.
   * @param {Sink} sink
   * @param {Buffer} bytes
   */
  function deliver(sink, bytes) {
    if (sink.out.destroyed) return false;
    if (sink.stale) return false;
    if (sink.out.writableLength > maxBufferedBytes) {
      sink.stale = true;
      sink.staleSince = now();
      sink.out.once('drain', () => onDrained(sink));
      return false;
    }
    sink.out.write(bytes);
    return true;
  }

  /**
   * One envelope to one client (a join, a resync, a replay), counted.
   * @param {Sink} sink
   * @param {number} seq
   * @param {string} json
   */
  function sendOne(sink, seq, json) {
    const cache = lastEncoded[sink.encoding];
    if (cache.json !== json) {
      cache.json = json;
      cache.bytes = ENCODERS[sink.encoding](seq, json);
    }
    const bytes = /** @type {Buffer} */ (cache.bytes);
    if (deliver(sink, bytes)) {
      metrics.messages.inc({ transport: sink.transport });
      metrics.bytes.inc({ transport: sink.transport }, bytes.length);
    }
  }

  return { deliver, sendOne };
}
