// The connection's clock pings (connection.js): over the WebSocket when the page has one, else
// GET time (a little slower); a socket whose pongs stop is dropped as half-open. GET time also
// answers "is the server there at all?" when a transport fails.

import { pageNow } from './page-clock.js';

/** WebSocket pongs missing this long (while we ping): a half-open socket, e.g. after an AP hop. */
const PONG_TIMEOUT_MS = 12_000;

/**
 * @param {object} options
 * @param {string} options.base page URL `time` is resolved against
 * @param {import('#core/client/clock-sync.js').ClockSync} options.clock
 * @param {() => void} options.onClock a clock sample arrived
 * @param {() => import('./transports/open-transport.js').Live | null} options.current the transport in use
 * @param {(live: import('./transports/open-transport.js').Live, reason: string) => void} options.drop close it as failed
 */
export function createConnectionClock({ base, clock, onClock, current, drop }) {
  let pingTimer = null;
  let lastPongAt = pageNow();
  let lastPingAt = 0;

  async function sampleTime(signal) {
    const c = pageNow();
    const res = await fetch(new URL('time', base), { cache: 'no-store', signal });
    const r = pageNow();
    if (!res.ok) return false;
    const body = await res.json();
    if (clock.addSample({ c, s: body.s, r })) onClock();
    return true;
  }

  async function pingLoop() {
    const live = current();
    const ws = live && live.handle.canPing && live.handle.isOpen() ? live : null;
    const t = pageNow();
    if (ws) {
      if (lastPingAt > lastPongAt && t - lastPongAt > PONG_TIMEOUT_MS) drop(ws, 'no pong: connection lost');
      else {
        ws.handle.send({ type: 'ping', ...clock.ping(t) });
        lastPingAt = t;
      }
    } else if (live) {
      try {
        await sampleTime(AbortSignal.timeout(5000));
      } catch {
        // The transport reports its own failures; a missed sample only delays sync.
      }
    }
    const delay = ws ? clock.nextDelay() : Math.max(250, clock.nextDelay() * 2);
    pingTimer = setTimeout(pingLoop, delay);
  }

  return {
    /** (Re)start the pings now. */
    restart() {
      clearTimeout(pingTimer);
      pingTimer = setTimeout(pingLoop, 0);
    },
    /** A WebSocket pong. @param {unknown} pong @param {number} r received at (page clock) */
    pong(pong, r) {
      if (clock.pong(pong, r)) {
        lastPongAt = r;
        onClock();
      }
    },
    /** A new socket: its pong deadline starts now. */
    fresh() {
      lastPongAt = pageNow();
    },
    /** Is the server there at all? Answers by fetching GET time (which also feeds the clock). */
    async reachable() {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 2500);
      try {
        return await sampleTime(controller.signal);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
