// Both directions of "is the edge link still there" for the uplink (uplink.js): WebSocket pings
// every HEARTBEAT_MS (a socket that did not answer the last one is half-open and is terminated,
// so the uplink reconnects), and the alive frames the edge's hello asks for (`aliveMs`), without
// which the edge marks the venue lost (docs/reference/publisher-protocol.md#venue-status; the frame and the
// period rule are the publisher protocol's, core/protocol/publisher.js).

import WebSocket from 'ws';
import { ALIVE_FRAME, alivePeriod } from '#core/protocol/publisher.js';

const HEARTBEAT_MS = 15_000;

/**
 * @param {object} options
 * @param {() => WebSocket | null} options.current the uplink's current socket
 * @param {() => void} options.onSilent the current socket did not answer a ping: it is terminated next
 */
export function createUplinkKeepalive({ current, onSilent }) {
  let answered = true;
  /** @type {NodeJS.Timeout | null} */
  let aliveTimer = null;

  const heartbeat = setInterval(() => {
    const ws = current();
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (!answered) {
      onSilent();
      ws.terminate();
      return;
    }
    answered = false;
    try {
      ws.ping();
    } catch {
      // the close handler reconnects
    }
  }, HEARTBEAT_MS);
  heartbeat.unref?.();

  function stopAlive() {
    if (aliveTimer) clearInterval(aliveTimer);
    aliveTimer = null;
  }

  return {
    /**
     * A new socket: its pongs count as answers.
     * @param {WebSocket} ws
     */
    watch(ws) {
      answered = true;
      ws.on('pong', () => {
        answered = true;
      });
    },
    /**
     * Send alive frames every `everyMs` (the hello's aliveMs; absent on older edges: none).
     * @param {unknown} everyMs
     */
    startAlive(everyMs) {
      stopAlive();
      const ms = alivePeriod(everyMs);
      if (ms === null) return;
      aliveTimer = setInterval(() => {
        const ws = current();
        try {
          if (ws && ws.readyState === WebSocket.OPEN) ws.send(ALIVE_FRAME);
        } catch {
          // the close handler reconnects
        }
      }, ms);
      aliveTimer.unref?.();
    },
    /** The socket closed: no alive frames until the next hello. */
    stopAlive,
    /** The uplink is closing for good. */
    close() {
      clearInterval(heartbeat);
      stopAlive();
    },
  };
}
