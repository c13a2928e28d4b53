// What every push-receiving scenario records (docs/how-to/load-test.md#scenarios), whatever the
// transport:
//   tutti.push_latency_ms  histogram: receive time − envelope `t`, for pushed envelopes (not the
//                          snapshot that answers a join or a resync: that is a reply, not a push)
//   tutti.messages         counter: envelopes received
//   tutti.resyncs          counter: gaps / new epochs that made this viewer ask for a snapshot
// and, to read those next to each other:
//   tutti.join_ms          histogram: connect → first snapshot
//   tutti.received_bytes   counter: envelope bytes (JSON text) received

import { readEnvelopeHead } from '#core/protocol/envelope-head.js';
import { createSeqTracker } from './seq-tracker.js';

export const Metric = Object.freeze({
  LATENCY: 'tutti.push_latency_ms',
  MESSAGES: 'tutti.messages',
  RESYNCS: 'tutti.resyncs',
  JOIN: 'tutti.join_ms',
  BYTES: 'tutti.received_bytes',
  DROPS: 'tutti.connections_dropped',
});

/**
 * @param {{ events: { emit: (...args: any[]) => unknown }, measureFrom?: number, startedAt?: number }} options
 */
export function createViewerMeter({ events, measureFrom = -Infinity, startedAt = Date.now() }) {
  const tracker = createSeqTracker();
  let joined = false;
  let received = 0;
  let pushes = 0;
  // Both counters of docs/how-to/load-test.md's metric table appear in every report, at 0 when nothing
  // happened: "no resyncs" is a result to read, not a missing key.
  events.emit('counter', Metric.MESSAGES, 0);
  events.emit('counter', Metric.RESYNCS, 0);

  /**
   * Account for one envelope.
   * @param {{ type: string, epoch: string, seq: number, t: number }} head
   * @param {number} receivedAt wall-clock ms when the bytes arrived
   * @param {number} bytes 0 when the caller counts bytes itself (a poll response holds several)
   * @returns {import('./seq-tracker.js').Verdict}
   */
  function envelope(head, receivedAt, bytes) {
    received += 1;
    events.emit('counter', Metric.MESSAGES, 1);
    if (bytes > 0) events.emit('counter', Metric.BYTES, bytes);
    const verdict = tracker.accept(head);
    if (verdict === 'join' && !joined) {
      joined = true;
      events.emit('histogram', Metric.JOIN, receivedAt - startedAt);
    } else if (verdict === 'live' && head.t >= measureFrom) {
      pushes += 1;
      events.emit('histogram', Metric.LATENCY, receivedAt - head.t);
    } else if (verdict === 'resync') {
      events.emit('counter', Metric.RESYNCS, 1);
    }
    return verdict;
  }

  return {
    envelope,
    /**
     * Account for one text frame; non-envelopes (pongs) are skipped.
     * @param {string} text
     * @param {number} receivedAt
     * @param {number} [bytes] size on the wire when known (WS frames), else the text's UTF-8 length
     * @returns {import('./seq-tracker.js').Verdict | null}
     */
    text(text, receivedAt, bytes) {
      const head = readEnvelopeHead(text);
      return head ? envelope(head, receivedAt, bytes ?? Buffer.byteLength(text)) : null;
    },
    tracker,
    /** Has this viewer ever had a snapshot? */
    joined: () => joined,
    received: () => received,
    pushes: () => pushes,
  };
}
