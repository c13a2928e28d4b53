// The console's OSC "Test" button (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver): `/tutti/ping n`
// to one target, and its round trip when the receiver echoes it back to the sending port. Only
// such echoes are read (≤ 512 bytes, while a ping waits); anything else arriving on the sender's
// socket is counted as `osc_reply` and dropped.

import { Message, encode } from 'node-osc';
import { decodeOsc } from './osc-decode.js';
import { wallClock } from './osc-send-core.js';
import { BadInput } from '../logs/metrics.js';
import { targetKey } from './osc-target-list.js';

/** An echoed ping later than this is not matched any more (ms). */
const PING_WINDOW_MS = 5000;
/** How long the test button waits for an echo before answering without a round trip (ms). */
export const ECHO_WAIT_MS = 500;

/**
 * @param {object} options
 * @param {import('./osc-target-list.js').OscTargetList} options.targets where a round trip is shown
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {(packet: { key: string, host: string, port: number, bytes: Uint8Array, ref: number }) => void} options.sendNow
 *   hands one packet to the send thread, which reports its outcome with `ref`
 */
export function createOscPings({ targets, metrics, sendNow }) {
  /** @type {Map<number, { key: string, sentAt: number, sent: (ok: boolean) => void, echoed: (ms: number | null) => void }>} pings by id */
  const pings = new Map();

  return {
    /**
     * Send `/tutti/ping n` to one target. Resolves with whether the network took it and, when the
     * target echoes it within `echoWaitMs`, the round trip (ms).
     * @param {{ host: string, port: number }} target
     * @param {number} [echoWaitMs]
     * @returns {Promise<{ sent: boolean, rttMs: number | null }>}
     */
    ping(target, echoWaitMs = ECHO_WAIT_MS) {
      const id = 1 + Math.floor(Math.random() * 2147483646);
      return new Promise((resolve) => {
        const forget = setTimeout(() => pings.delete(id), PING_WINDOW_MS);
        forget.unref();
        pings.set(id, {
          key: targetKey(target),
          sentAt: wallClock(),
          sent(ok) {
            if (ok) return setTimeout(() => this.echoed(null), echoWaitMs).unref();
            pings.delete(id);
            clearTimeout(forget);
            resolve({ sent: false, rttMs: null });
          },
          echoed: (ms) => resolve({ sent: true, rttMs: ms }),
        });
        sendNow({ key: targetKey(target), host: target.host, port: target.port, bytes: encode(new Message('/tutti/ping', id)), ref: id });
      });
    },

    /**
     * The send thread's outcome of a ping's packet.
     * @param {number} ref the ping's id
     * @param {boolean} ok
     */
    sent: (ref, ok) => pings.get(ref)?.sent(ok),

    /**
     * A packet that arrived on the sender's socket: a waiting ping's echo, or counted and dropped.
     * @param {Uint8Array | null} bytes
     * @param {number} at wall-clock ms it arrived
     */
    echo(bytes, at) {
      const stray = () => metrics.badInput.inc({ source: BadInput.OSC_REPLY });
      if (!bytes || pings.size === 0) return stray();
      let packet;
      try {
        packet = decodeOsc(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } catch {
        return stray();
      }
      const message = packet.oscType === 'bundle' ? packet.elements[0] : packet;
      if (message?.oscType !== 'message') return stray();
      const id = message.args[0]?.value;
      const waiting = ['/tutti/ping', '/tutti/pong'].includes(message.address) && typeof id === 'number' ? pings.get(id) : undefined;
      if (!waiting) return stray();
      pings.delete(/** @type {number} */ (id));
      const ms = Math.round((at - waiting.sentAt) * 100) / 100;
      const target = targets.get(waiting.key);
      if (target) target.rtt = { ms, at: Date.now() };
      waiting.echoed(ms);
    },
  };
}
