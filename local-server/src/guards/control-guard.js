// The gate in front of every request on the control listener (docs/explanation/threat-model.md#the-control-listener-is-bound-to-127001-only)
// in the order it checks:
//   1. Host must name the loopback control port (127.0.0.1, localhost or [::1] with that port):
//      a web page whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name → 421.
//   2. A browser request must come from the console's own origin: Origin absent or
//      `http://<Host>`, and Sec-Fetch-Site absent, "same-origin" or "none" (typed in the address
//      bar, opened by the desktop app) → otherwise 403. A cross-site page (even an <img> that
//      carries no Origin) never reaches the token check, so it cannot use up the throttle below.
//   3. The console page and its files pass without a token (they hold no data).
//   4. Failed token checks are throttled for the whole listener (everything on it is loopback,
//      so per address would mean nothing): after a burst, a few per second; beyond that every
//      request needing the token gets 429 + Retry-After without being compared, so a guesser
//      gets no answers at all.
// Every refusal is JSON with a code and is counted in tutti_bad_input_total{source}.

import { performance } from 'node:perf_hooks';
import { createTokenBucket } from '#core/util/token-bucket.js';
import { bearerMatches } from './auth.js';
import { BadInput } from '../logs/metrics.js';
import { sendError } from '../routes/send-error.js';

/** Default auth throttle: 20 failures at once, then 5 per second. */
export const AUTH_FAILURE_LIMIT = Object.freeze({ ratePerSecond: 5, burst: 20 });

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i;

/** Console UI files served without the token (the page reads the token from its URL). */
export const isConsoleFile = (/** @type {string} */ url) =>
  url === '/' || url.startsWith('/?') || url.startsWith('/console/') || url.startsWith('/core/') || url === '/favicon.ico';

/**
 * The Host header when it names this loopback listener on `port`, lowercased; otherwise null.
 * @param {string | undefined} host
 * @param {number} port the port the request arrived on
 * @returns {string | null}
 */
export function loopbackHost(host, port) {
  const match = typeof host === 'string' ? LOOPBACK_HOST.exec(host.trim()) : null;
  if (!match) return null;
  const given = match[2] === undefined ? 80 : Number(match[2]);
  return given === port ? host.trim().toLowerCase() : null;
}

/**
 * Whether the browser says this request comes from the console's own page (or from no page).
 * @param {Record<string, string | string[] | undefined>} headers
 * @param {string} host the checked Host header, lowercased
 */
export function sameOriginOrNone(headers, host) {
  const origin = headers.origin;
  if (origin !== undefined && String(origin).toLowerCase() !== `http://${host}`) return false;
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * An onRequest hook for the control listener.
 * @param {object} options
 * @param {string} options.token the control bearer token
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ ratePerSecond: number, burst: number }} [options.authFailures] the throttle (AUTH_FAILURE_LIMIT)
 * @param {() => number} [options.now] ms, monotonic
 */
export function createControlGuard({ token, metrics, authFailures = AUTH_FAILURE_LIMIT, now = () => performance.now() }) {
  const failures = createTokenBucket({ ...authFailures, now: now() });
  let blockedUntil = 0;

  /**
   * @param {import('fastify').FastifyRequest} request
   * @param {import('fastify').FastifyReply} reply
   */
  return async function controlGuard(request, reply) {
    const host = loopbackHost(request.headers.host, request.socket.localPort ?? 0);
    if (host === null) {
      metrics.badInput.inc({ source: BadInput.CONTROL_HOST });
      return sendError(reply, 'MISDIRECTED_HOST', {
        message: `the control listener answers only to 127.0.0.1, localhost or [::1] with port ${request.socket.localPort}`,
      });
    }
    if (!sameOriginOrNone(request.headers, host)) {
      metrics.badInput.inc({ source: BadInput.CONTROL_ORIGIN });
      return sendError(reply, 'FOREIGN_ORIGIN');
    }
    // The console page and its files are public (they hold no data); every API call needs the token.
    if (request.method === 'GET' && isConsoleFile(request.url)) return;
    const t = now();
    if (t < blockedUntil) return throttled(reply, blockedUntil - t);
    if (bearerMatches(request.headers.authorization, token)) return;
    if (!failures.take(t)) {
      blockedUntil = t + 1000;
      return throttled(reply, 1000);
    }
    metrics.badInput.inc({ source: BadInput.AUTH });
    return sendError(reply, 'UNAUTHORIZED', { headers: { 'www-authenticate': 'Bearer' } });
  };

  function throttled(reply, waitMs) {
    metrics.badInput.inc({ source: BadInput.AUTH });
    return sendError(reply, 'AUTH_THROTTLED', { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } });
  }
}
