// Small response helpers shared by the router and the objects.

import { edgeErrorEntry, errorBody } from '#core/protocol/http-errors.js';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * @param {unknown} body
 * @param {number} [status]
 * @param {Record<string, string>} [headers]
 */
export function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/**
 * Every error the edge answers (docs/reference/errors.md#audience-errors): the catalogue's status (core/protocol/http-errors.js)
 * and the venue's body, `{"error": CODE, "message": …}`. A status other than the catalogue's must be
 * one of the code's `alsoStatus`: a code answered with a status the catalogue does not know is a
 * bug, and test/edge/error-catalogue.test.js checks every call in the sources.
 * @param {import('#core/protocol/http-errors.js').EdgeErrorCode} code
 * @param {{ message?: string, headers?: Record<string, string>, status?: number }} [options] message: the
 *   catalogue's sentence by default
 */
export function edgeError(code, { message, headers = {}, status } = {}) {
  const entry = edgeErrorEntry(code);
  if (!entry) throw new Error(`edge error ${code} is not in the catalogue (core/protocol/http-errors.js)`);
  if (status !== undefined && status !== entry.status && !entry.alsoStatus?.includes(status))
    throw new Error(`edge error ${code} is not answered with ${status} (core/protocol/http-errors.js)`);
  return json(errorBody(code, message ?? entry.message), status ?? entry.status, headers);
}

/** CORS for the read-only audience routes, so a page served elsewhere (the venue) can fall back to the edge. */
export const CORS = Object.freeze({ 'access-control-allow-origin': '*' });

/** @param {Request} request */
export function isWebSocketUpgrade(request) {
  return (request.headers.get('upgrade') ?? '').toLowerCase() === 'websocket';
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
