// Which transport a viewer uses, decided at run time: WebSocket first, then SSE, then polling.
// A transport that keeps failing (N failures in a row without delivering a valid state) is
// abandoned for the next; a better one is probed again later, alongside the working one, and
// taken back once it delivers. Failures while the server itself is unreachable (restart, Wi-Fi
// gone) say nothing about the transport and do not count toward abandoning it; they only back
// off. Reconnect delays are exponential with jitter so thousands of phones that lost the same
// access point do not come back in the same millisecond.

import { backoffDelay } from '#core/util/backoff.js';

/**
 * @typedef {'ws' | 'sse' | 'poll'} TransportName
 *
 * @typedef {object} FailureDecision
 * @property {string} transport the transport to connect next
 * @property {number} delay ms to wait before connecting
 * @property {boolean} switched true when this failure made us abandon the previous transport
 *
 * @typedef {object} TransportPolicy
 * @property {() => string} current
 * @property {() => void} succeeded the current transport delivered a valid state
 * @property {(info: { now: number, serverReachable?: boolean }) => FailureDecision} failed the current transport closed, errored or stayed silent
 * @property {(now: number) => string | null} probe a better transport worth trying now, alongside the current one
 * @property {(name: string, ok: boolean, now: number) => void} probeResult ok: switch to it; else wait for the next probe window
 * @property {() => { current: string, failures: number, attempt: number, switches: number }} status
 */

/**
 * @param {object} [options]
 * @param {string[]} [options.order] best first (default ws, sse, poll); pass only those the browser supports
 * @param {number} [options.maxFailures] failures in a row before abandoning a transport (default 3)
 * @param {number} [options.betterRetryMs] how long after abandoning to probe a better one (default 45 s)
 * @param {number} [options.baseMs] first reconnect delay (default 250 ms)
 * @param {number} [options.capMs] longest reconnect delay (default 5 s)
 * @param {() => number} [options.random] uniform [0,1) (injected so tests are deterministic)
 * @param {number} [options.now] creation time
 * @returns {TransportPolicy}
 */
export function createTransportPolicy(options = {}) {
  const order = options.order ?? ['ws', 'sse', 'poll'];
  if (order.length === 0) throw new RangeError('transport order must name at least one transport');
  const maxFailures = options.maxFailures ?? 3;
  const betterRetryMs = options.betterRetryMs ?? 45_000;
  const baseMs = options.baseMs ?? 250;
  const capMs = options.capMs ?? 5000;
  const random = options.random ?? Math.random;

  let index = 0;
  let failures = 0;
  let attempt = 0;
  let switches = 0;
  let lastProbe = options.now ?? 0;
  let probeCursor = 0;

  /** n failures so far (0 right after a switch): equal jitter, core/util/backoff.js. */
  const backoff = (n) => backoffDelay(n - 1, { baseMs, capMs, random });

  return {
    current: () => order[index],
    succeeded() {
      failures = 0;
      attempt = 0;
    },
    failed({ now, serverReachable = true }) {
      attempt += 1;
      if (serverReachable) failures += 1;
      if (failures >= maxFailures && index < order.length - 1) {
        index += 1;
        failures = 0;
        attempt = 0;
        switches += 1;
        lastProbe = now;
        probeCursor = 0;
        return { transport: order[index], delay: backoff(0), switched: true };
      }
      return { transport: order[index], delay: backoff(attempt), switched: false };
    },
    probe(now) {
      if (index === 0 || now - lastProbe < betterRetryMs) return null;
      lastProbe = now;
      // Best first; after a failed probe, the next window tries the next better one.
      const name = order[probeCursor % index];
      probeCursor += 1;
      return name;
    },
    probeResult(name, ok, now) {
      const i = order.indexOf(name);
      if (ok && i >= 0 && i < index) {
        index = i;
        failures = 0;
        attempt = 0;
        switches += 1;
        probeCursor = 0;
      }
      lastProbe = now;
    },
    status: () => ({ current: order[index], failures, attempt, switches }),
  };
}
