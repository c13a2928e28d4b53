// The root's judge of publisher frames (core/protocol/publisher.js; docs/explanation/edge-design.md#root-srcshowshowjs-class-show):
// each frame is checked against the stream's head (publish-rules.js) and answered ack / resync /
// error, over the WebSocket (publisher-link.js) or as the answer to one POST /publish. Counted for
// /healthz?deep=1 (`frames`).

import { readBodyLimited } from '../http/body-limit.js';
import { MAX_PUBLISH_FRAME_BYTES } from '../env/config.js';
import { json } from '../http/http.js';
import { judgeFrame } from './publish-rules.js';

/** Publisher frame counters, for /healthz?deep=1 (`frames`); the venue watch counts `venueLost`. */
export const newFrameCounters = () => ({ accepted: 0, noop: 0, resync: 0, badFrame: 0, tooBig: 0, stale: 0, venueLost: 0 });

/**
 * @param {string} code
 * @param {string} message
 */
export const frameError = (code, message) => ({ type: 'error', code, message });

/** The reply to a POST /publish over the frame limit (the Worker refuses a declared one before the root). */
export const tooBigReply = () => frameError('TOO_BIG', `frame exceeds ${MAX_PUBLISH_FRAME_BYTES} bytes`);

/**
 * @param {object} options
 * @param {() => { epoch: string | null, seq: number | null }} options.head where the publisher's stream stands (stream-store.js)
 * @param {(envelope: import('#core/protocol/envelope.js').Envelope, text: string) => void} options.accept apply a frame judged 'apply'
 * @param {() => number} options.viewers how many viewers the ack reports
 * @param {ReturnType<typeof newFrameCounters>} options.counters
 * @param {() => void} options.onFrame a text frame arrived (a sign of life, publisher-link.js)
 */
export function createFrameJudge({ head, accept, viewers, counters, onFrame }) {
  const ack = () => ({ type: 'ack', ...head(), viewers: viewers() });

  /**
   * Check and apply one publisher frame; returns the reply for the publisher. Synchronous on
   * purpose: the output gate holds the reply and the pushes until storage has them.
   * @param {string} text
   */
  function handle(text) {
    onFrame();
    const verdict = judgeFrame(head(), text, MAX_PUBLISH_FRAME_BYTES);
    switch (verdict.kind) {
      case 'error':
        if (verdict.code === 'TOO_BIG') counters.tooBig += 1;
        else if (verdict.code === 'STALE') counters.stale += 1;
        else counters.badFrame += 1;
        return frameError(verdict.code, verdict.message);
      case 'resync':
        counters.resync += 1;
        return { type: 'resync', reason: verdict.reason, ...head() };
      case 'noop':
        counters.noop += 1;
        return ack();
      default:
        counters.accepted += 1;
        accept(verdict.envelope, text);
        return ack();
    }
  }

  return {
    handle,

    /** A binary WebSocket frame: refused and counted. */
    binary() {
      counters.badFrame += 1;
      return frameError('BAD_FRAME', 'send text frames (JSON envelopes), not binary');
    },

    /**
     * POST /publish: one envelope. Refused before it is read: a declared length over the limit at
     * once, a chunked body once the limit is passed (body-limit.js), so no body is held whole.
     * @param {Request} request
     */
    async publishOnce(request) {
      const read = await readBodyLimited(request, MAX_PUBLISH_FRAME_BYTES);
      if (!read.ok) {
        counters.tooBig += 1;
        return json(tooBigReply(), 413);
      }
      const reply = /** @type {any} */ (handle(read.text));
      const status =
        reply.type === 'ack' ? 200 : reply.type === 'resync' ? 409 : reply.code === 'TOO_BIG' ? 413 : reply.code === 'STALE' ? 409 : 400;
      return json(reply, status);
    },
  };
}
