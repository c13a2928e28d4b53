// The root's end of the venue↔edge publisher link (core/protocol/publisher.js;
// docs/explanation/edge-design.md#root-srcshowshowjs-class-show): one publisher at a time over a hibernatable
// WebSocket, its frames handed to the frame judge (publisher-frames.js), and every sign of life
// remembered for the venue watch (venue-watch.js).

/* global WebSocketRequestResponsePair */
import { ALIVE_EVERY_MS, ALIVE_FRAME, PublisherClose } from '#core/protocol/publisher.js';
import { clientAddress } from '../http/client-address.js';

const PUBLISHER_TAG = 'publisher';
/**
 * Frames a publisher sends this soon after connecting are its catch-up (a snapshot or replayed
 * deltas, made earlier): their `t` says nothing about the venue's clock (venue-clock.js).
 */
const CATCH_UP_MS = 1000;

/**
 * @param {object} options
 * @param {DurableObjectState} options.ctx the root's state (its sockets and storage)
 * @param {() => { epoch: string | null, seq: number | null }} options.head where the publisher's stream stands (stream-store.js)
 * @param {ReturnType<typeof import('./publisher-frames.js').createFrameJudge>} options.judge
 * @param {() => void} options.onConnect a publisher connected (after its hello)
 */
export function createPublisherLink({ ctx, head, judge, onConnect }) {
  /** Last time a publisher frame, connect or close was seen (ms); 0 after a wake-up. */
  let lastHeardAt = 0;
  /** The address the publisher last connected from: the venue's public address (venue-address.js). */
  let venueAddress = '';
  // The alive frame is answered by the runtime itself, without waking the object; the watch reads
  // when it last was (getWebSocketAutoResponseTimestamp).
  ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(ALIVE_FRAME, ALIVE_FRAME));

  const sockets = () => ctx.getWebSockets(PUBLISHER_TAG);

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
    /** For /healthz?deep=1. */
    stats: () => ({ publishers: sockets().length }),

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
     * @param {WebSocket} ws
     * @param {string | ArrayBuffer} message
     */
    message(ws, message) {
      ws.send(JSON.stringify(typeof message === 'string' ? judge.handle(message) : judge.binary()));
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

    /** A publisher frame arrived (publisher-frames.js): a sign of life. */
    heard() {
      lastHeardAt = Date.now();
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
