// The root's end of the venue↔edge publisher protocol (core/protocol/publisher.js; README.md,
// "Publishing"): one publisher at a time over a hibernatable WebSocket (or one envelope per POST),
// each frame judged against the stream's head (publish-rules.js), answered with ack / resync /
// error, and every sign of life remembered for the venue watch (venue-watch.js). What an accepted
// frame does to the show is the caller's (`accept`).

/* global WebSocketRequestResponsePair */
import { ALIVE_EVERY_MS, ALIVE_FRAME, PublisherClose } from '#core/protocol/publisher.js';
import { readBodyLimited } from './body-limit.js';
import { clientAddress } from './client-address.js';
import { MAX_PUBLISH_FRAME_BYTES } from './config.js';
import { json } from './http.js';
import { judgeFrame } from './publish-rules.js';

const PUBLISHER_TAG = 'publisher';
/**
 * Frames a publisher sends this soon after connecting are its catch-up (a snapshot or replayed
 * deltas, made earlier): their `t` says nothing about the venue's clock (venue-clock.js).
 */
const CATCH_UP_MS = 1000;

/** Publisher frame counters, for /healthz?deep=1 (`frames`). */
export const newFrameCounters = () => ({ accepted: 0, noop: 0, resync: 0, badFrame: 0, tooBig: 0, stale: 0, venueLost: 0 });

/** @param {string} code @param {string} message */
const frameError = (code, message) => ({ type: 'error', code, message });

/** The reply to a POST /publish over the frame limit (the Worker refuses a declared one before the root). */
export const tooBigReply = () => frameError('TOO_BIG', `frame exceeds ${MAX_PUBLISH_FRAME_BYTES} bytes`);

/**
 * @param {object} options
 * @param {DurableObjectState} options.ctx the root's state (its sockets and storage)
 * @param {() => { epoch: string | null, seq: number | null }} options.head where the publisher's stream stands (stream-store.js)
 * @param {(envelope: import('#core/protocol/envelope.js').Envelope, text: string) => void} options.accept apply a frame judged 'apply'
 * @param {() => number} options.viewers how many viewers the ack reports
 * @param {() => void} options.onConnect a publisher connected (after its hello)
 * @param {ReturnType<typeof newFrameCounters>} options.counters
 */
export function createPublisherLink({ ctx, head, accept, viewers, onConnect, counters }) {
  /** Last time a publisher frame, connect or close was seen (ms); 0 after a wake-up. */
  let lastHeardAt = 0;
  /** The address the publisher last connected from: the venue's public address (venue-address.js). */
  let venueAddress = '';
  // The alive frame is answered by the runtime itself, without waking the object; the watch reads
  // when it last was (getWebSocketAutoResponseTimestamp).
  ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(ALIVE_FRAME, ALIVE_FRAME));

  const sockets = () => ctx.getWebSockets(PUBLISHER_TAG);
  const ack = () => ({ type: 'ack', ...head(), viewers: viewers() });

  /**
   * Check and apply one publisher frame; returns the reply for the publisher. Synchronous on
   * purpose: the output gate holds the reply and the pushes until storage has them.
   * @param {string} text
   */
  function handle(text) {
    lastHeardAt = Date.now();
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

  /** @param {number} code @param {string} reason */
  function closeAll(code, reason) {
    for (const ws of sockets()) {
      try {
        ws.close(code, reason);
      } catch {
        // already closing
      }
    }
  }

  return {
    sockets,

    async load() {
      const stored = await ctx.storage.get('venueAddress');
      if (typeof stored === 'string') venueAddress = stored;
    },

    /**
     * The publisher's address (the Worker only forwards authenticated /publish requests here).
     * @param {Request} request
     */
    learnAddress(request) {
      const address = clientAddress(request);
      if (address === venueAddress) return;
      venueAddress = address;
      void ctx.storage.put('venueAddress', address);
    },
    address: () => venueAddress,

    /** A WebSocket upgrade on /publish: the newest publisher wins (the older socket is usually a dead connection). */
    connect() {
      closeAll(PublisherClose.REPLACED, 'replaced by a newer publisher connection');
      const [client, server] = Object.values(new WebSocketPair());
      ctx.acceptWebSocket(server, [PUBLISHER_TAG]);
      lastHeardAt = Date.now();
      server.serializeAttachment({ connectedAt: lastHeardAt });
      // aliveMs: send ALIVE_FRAME this often, or be marked lost after VENUE_LOST_MS of silence.
      server.send(JSON.stringify({ type: 'hello', ...head(), aliveMs: ALIVE_EVERY_MS }));
      onConnect();
      return new Response(null, { status: 101, webSocket: client });
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

    /**
     * @param {WebSocket} ws
     * @param {string | ArrayBuffer} message
     */
    message(ws, message) {
      if (typeof message !== 'string') {
        counters.badFrame += 1;
        ws.send(JSON.stringify(frameError('BAD_FRAME', 'send text frames (JSON envelopes), not binary')));
        return;
      }
      ws.send(JSON.stringify(handle(message)));
    },

    /**
     * A socket closed; true when it was the publisher's (the lost timer starts now).
     * @param {WebSocket} ws
     */
    closed(ws) {
      if (!ctx.getTags(ws).includes(PUBLISHER_TAG)) return false;
      lastHeardAt = Date.now();
      return true;
    },

    /** After a restart nobody is connected yet: the publisher's silence counts from now. */
    heardNowIfAlone() {
      if (sockets().length === 0) lastHeardAt = Date.now();
    },
    lastHeardAt: () => lastHeardAt,

    /** The latest sign of life of the publisher (ms): frames, connects, closes, alive pings. */
    lastHeard() {
      let heard = lastHeardAt;
      for (const ws of sockets()) {
        heard = Math.max(
          heard,
          ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0,
          /** @type {any} */ (ws.deserializeAttachment())?.connectedAt ?? 0,
        );
      }
      return heard;
    },

    /** False while a publisher is still sending its catch-up (its frames' `t` is old news). */
    caughtUp() {
      const now = Date.now();
      return sockets().every((ws) => now - /** @type {any} */ (ws.deserializeAttachment()?.connectedAt ?? 0) >= CATCH_UP_MS);
    },

    closeAll,

    /**
     * Send to the publisher (the edge's vote totals); a closing socket misses it, the next one gets the next.
     * @param {string} text
     */
    broadcast(text) {
      for (const ws of sockets()) {
        try {
          ws.send(text);
        } catch {
          // a closing publisher
        }
      }
    },
  };
}
