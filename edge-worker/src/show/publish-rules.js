// What the root does with one publisher frame. Pure and synchronous, so "check, apply, persist,
// ack" happens in one turn of the event loop and two frames can never interleave.

import { envelopeProblem } from '#core/protocol/envelope.js';

/**
 * @typedef {{ epoch: string | null, seq: number | null }} Head
 * @typedef {import('#core/protocol/envelope.js').Envelope} Envelope
 * @typedef {{ kind: 'apply', envelope: Envelope }
 *   | { kind: 'noop', envelope: Envelope }
 *   | { kind: 'resync', reason: string }
 *   | { kind: 'error', code: 'BAD_FRAME' | 'TOO_BIG' | 'STALE', message: string }} Verdict
 */

const encoder = new TextEncoder();

/**
 * UTF-8 size of a string without encoding it when the answer is obvious.
 * @param {string} text
 * @param {number} limit
 */
export function exceedsBytes(text, limit) {
  if (text.length > limit) return true; // every UTF-16 unit is at least one byte
  if (text.length * 3 <= limit) return false; // every unit is at most three bytes
  return encoder.encode(text).byteLength > limit;
}

/**
 * Judge a publisher frame against the current head of the stream.
 *  - a delta must continue the stream: same epoch, seq = head.seq + 1;
 *  - a snapshot may start a new epoch or jump ahead in this one; the same seq is a no-op;
 *    an older seq of the same epoch is refused (it would move viewers back in time).
 * @param {Head} head
 * @param {string} text the frame as received
 * @param {number} maxBytes
 * @returns {Verdict}
 */
export function judgeFrame(head, text, maxBytes) {
  if (exceedsBytes(text, maxBytes)) {
    return { kind: 'error', code: 'TOO_BIG', message: `frame exceeds ${maxBytes} bytes` };
  }
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    return { kind: 'error', code: 'BAD_FRAME', message: 'frame is not JSON' };
  }
  const problem = envelopeProblem(envelope);
  if (problem) return { kind: 'error', code: 'BAD_FRAME', message: problem };

  if (envelope.type === 'snapshot') {
    if (head.epoch !== envelope.epoch || head.seq === null || envelope.seq > head.seq) return { kind: 'apply', envelope };
    if (envelope.seq === head.seq) return { kind: 'noop', envelope };
    return {
      kind: 'error',
      code: 'STALE',
      message: `snapshot seq ${envelope.seq} is older than the edge's ${head.seq} in epoch ${head.epoch}`,
    };
  }
  // `venue` is the edge's own field (docs/README.md, state section): a delta may not touch it.
  if (envelope.data !== null && typeof envelope.data === 'object' && Object.hasOwn(envelope.data, 'venue')) {
    return { kind: 'error', code: 'BAD_FRAME', message: 'the state key "venue" is reserved for the edge' };
  }
  if (head.epoch === null || head.seq === null) return { kind: 'resync', reason: 'the edge has no state yet: send a snapshot' };
  if (envelope.epoch !== head.epoch)
    return { kind: 'resync', reason: `delta for epoch ${envelope.epoch}, the edge is at epoch ${head.epoch}` };
  if (envelope.seq <= head.seq) return { kind: 'resync', reason: `delta seq ${envelope.seq} was already applied (edge at ${head.seq})` };
  if (envelope.seq > head.seq + 1) return { kind: 'resync', reason: `gap: delta seq ${envelope.seq} after ${head.seq}` };
  return { kind: 'apply', envelope };
}
