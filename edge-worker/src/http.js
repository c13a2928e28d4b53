// Small response helpers shared by the router and the objects.

import { audienceError, errorBody } from '#core/protocol/http-errors.js';

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
 * A JSON error every client (and person) can act on: `{ "error": CODE, "message": … }`, the
 * venue's shape (README.md, "Errors").
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [headers]
 */
export function jsonError(status, code, message, headers = {}) {
  return json(errorBody(code, message), status, headers);
}

/**
 * A catalogued audience error (core/protocol/http-errors.js): the same status and body as the venue.
 * @param {import('#core/protocol/http-errors.js').AudienceErrorCode} code
 * @param {Record<string, string>} [headers]
 */
export function audienceErrorResponse(code, headers = {}) {
  const { status, body } = audienceError(code);
  return json(body, status, headers);
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
