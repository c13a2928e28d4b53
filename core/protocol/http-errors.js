// One error catalogue for the audience endpoints of both servers (README.md, "Errors"): the venue
// (Fastify) and the edge worker answer the same bad request with the same status and the same
// body, `{"error": CODE, "message": sentence}`. Runtime-free: the venue sends the body with
// reply.code(status).send(...), the edge wraps it in a Response.

/**
 * code → HTTP status and the sentence a person reads. Endpoint-specific errors that only one server
 * has (publishing, the control API) use errorBody(code, message) with a message of their own.
 */
export const AUDIENCE_ERRORS = Object.freeze({
  BAD_SINCE: { status: 400, message: 'since / Last-Event-ID must be a non-negative integer' },
  BAD_WAIT: { status: 400, message: 'wait must be a non-negative integer (milliseconds, at most 30000 are used)' },
  BAD_STREAM: { status: 400, message: 'stream must be "full" or "lean"' },
  NOT_FOUND: { status: 404, message: 'no such media file in this show' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'this path only answers GET and HEAD' },
  UPGRADE_REQUIRED: { status: 426, message: '/ws needs a WebSocket upgrade' },
});

/** @typedef {keyof typeof AUDIENCE_ERRORS} AudienceErrorCode */

/**
 * The JSON body of an error answer.
 * @param {string} code an AUDIENCE_ERRORS key, or a code of one server's own endpoints
 * @param {string} [message] defaults to the catalogue's sentence for the code
 * @returns {{ error: string, message: string }}
 */
export function errorBody(code, message) {
  const known = /** @type {Record<string, { message: string }>} */ (AUDIENCE_ERRORS)[code];
  return { error: code, message: message ?? known?.message ?? code };
}

/**
 * Status and body for a catalogued audience error.
 * @param {AudienceErrorCode} code
 * @returns {{ status: number, body: { error: string, message: string } }}
 */
export function audienceError(code) {
  return { status: AUDIENCE_ERRORS[code].status, body: errorBody(code) };
}

/** The methods every audience path answers; anything else is METHOD_NOT_ALLOWED with this Allow. */
export const AUDIENCE_METHODS = 'GET, HEAD';
