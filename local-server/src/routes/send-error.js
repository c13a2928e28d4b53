// The venue's one way to answer with an error (docs/reference/errors.md#audience-errors): the status and the default
// sentence come from the catalogue (core/protocol/http-errors.js), so a code cannot be answered
// with two statuses by accident, and every body is `{"error": CODE, "message": sentence, …}`.

import { venueError } from '#core/protocol/http-errors.js';

/**
 * @typedef {{ message?: string, status?: number, headers?: Record<string, string>, [field: string]: unknown }} ErrorExtra
 *   `message` replaces the catalogue's sentence; `status` may only be one of the entry's `alsoStatus`;
 *   `headers` are set on the reply; any other field is added to the body (INVALID_SCORE's `problems`).
 */

/**
 * Answer `reply` with the catalogued error `code`.
 * @param {import('fastify').FastifyReply} reply
 * @param {string} code a key of VENUE_ERRORS or AUDIENCE_ERRORS
 * @param {ErrorExtra} [extra]
 * @returns {import('fastify').FastifyReply}
 * @throws {TypeError} for a code the catalogue lacks or a status it does not list (a programming error)
 */
export function sendError(reply, code, extra = {}) {
  const entry = venueError(code);
  if (!entry) throw new TypeError(`${code} is not in the error catalogue (core/protocol/http-errors.js)`);
  const { message, status = entry.status, headers = {}, ...fields } = extra;
  if (status !== entry.status && !entry.alsoStatus?.includes(status)) throw new TypeError(`${code} is not answered with ${status}`);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(status).send({ error: code, message: message ?? entry.message, ...fields });
}

/**
 * Answer an error thrown while a request was handled (Fastify's own: bad JSON, a body that fails
 * its schema, a wrong media type or size; the engine's refusals): a catalogued code gets the
 * catalogue's status; Fastify's codes keep its 4xx status and sentence; anything else is 500
 * ERROR "internal error", so no detail of a fault reaches the client.
 * @param {import('fastify').FastifyReply} reply
 * @param {{ code?: string, statusCode?: number, message: string }} error
 * @param {string} [message] the sentence to send for a 4xx instead of error.message
 * @returns {import('fastify').FastifyReply}
 */
export function sendThrownError(reply, error, message = error.message) {
  const entry = error.code ? venueError(error.code) : undefined;
  if (entry && error.code !== 'ERROR') return sendError(reply, /** @type {string} */ (error.code), { message });
  const status = thrownStatus(error);
  return reply.code(status).send({ error: error.code ?? 'ERROR', message: status === 500 ? venueError('ERROR')?.message : message });
}

/**
 * Answer one of the engine's refusals (core/engine/engine.js EngineError: a seek outside the score, a
 * tempo out of range, …): 400 with the engine's code and sentence, the catalogue's status for a
 * code it lists (docs/reference/errors.md#venue-errors). A code the catalogue does not list yet is still a
 * 400, never a 500: test/local-server/routes/error-catalogue.test.js is what asks for it to be listed.
 * @param {import('fastify').FastifyReply} reply
 * @param {{ code: string, message: string }} refusal
 * @returns {import('fastify').FastifyReply}
 */
export function sendEngineRefusal(reply, refusal) {
  const entry = venueError(refusal.code);
  if (entry) return sendError(reply, refusal.code, { message: refusal.message });
  return reply.code(400).send({ error: refusal.code, message: refusal.message });
}

/**
 * The status of a thrown error: its own 4xx, else 500.
 * @param {{ statusCode?: number }} error
 * @returns {number}
 */
export function thrownStatus(error) {
  return error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
}
