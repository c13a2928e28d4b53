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

// Edge-only codes
/**
 * The edge worker's own codes (edge-worker/README.md): code → status and default sentence, every
 * one sent through edgeError (edge-worker/src/http.js). `alsoStatus` lists the other statuses the
 * same code is answered with (a vote too large is 413, of the wrong type 415, malformed 400).
 * Codes the edge shares with the audience catalogue above (NOT_FOUND, METHOD_NOT_ALLOWED,
 * UPGRADE_REQUIRED, BAD_SINCE, BAD_WAIT, BAD_STREAM) are not repeated. The publisher protocol's
 * frame errors (TOO_BIG, BAD_FRAME, STALE) are replies of core/protocol/publisher.js, not here.
 */
export const EDGE_ERRORS = Object.freeze({
  // Which show (show-path.js, show-allowlist.js).
  BAD_SHOW: { status: 400, message: 'a show is named in the path as /s/<show>/' },
  NO_SUCH_SHOW: { status: 404, message: 'this edge serves no such show' },
  // Publishing (publish-guard.js, media.js).
  UNAUTHORIZED: { status: 401, message: 'publishing needs Authorization: Bearer <PUBLISH_TOKEN>' },
  AUTH_THROTTLED: { status: 429, message: 'too many wrong publish tokens from this address; try again later' },
  WEAK_PUBLISH_TOKEN: { status: 503, message: 'the publish token is too short to publish with' },
  MEDIA_TOO_BIG: { status: 413, message: 'the upload is larger than the limit per file' },
  MEDIA_QUOTA: { status: 413, message: "storing this file would bring the show's media over its limit" },
  SHA256_MISMATCH: { status: 400, message: "the body's sha256 is not the one the x-content-sha256 header says" },
  BAD_MEDIA_PATH: { status: 400, message: 'a media path is relative, without empty, "." or ".." segments' },
  // Viewers and their limits (viewers.js, shard.js, address-caps.js, viewer-session.js).
  EDGE_FULL: { status: 503, message: 'all shards are full; try again shortly' },
  SHARD_FULL: { status: 503, message: 'this shard is full' },
  TOO_MANY_SOCKETS: { status: 429, message: 'this address already holds as many viewers as it may; close one first' },
  TOO_MANY_STREAMS: { status: 429, message: 'this address already holds as many open streams as it may; close one first' },
  TOO_MANY_JOINS: { status: 429, message: 'too many viewers joined from this address just now; try again in a minute' },
  BAD_SESSION: { status: 400, alsoStatus: [413], message: 'a session request is {"device": "<id>"} as JSON' },
  // Votes (vote-route.js).
  BAD_VOTE: { status: 400, alsoStatus: [413, 415], message: 'the body is not a vote' },
  SESSION: { status: 403, message: 'a vote needs x-tutti-session from POST /session for its device id' },
  TOO_MANY_VOTES: { status: 429, message: 'too many votes just now; try again shortly' },
  // The show's objects out of reach.
  UNAVAILABLE: { status: 503, message: 'the show is not reachable right now' },
  ROOT_UNAVAILABLE: { status: 503, message: 'the show is not reachable right now' },
});

/** @typedef {keyof typeof EDGE_ERRORS | AudienceErrorCode} EdgeErrorCode */

/**
 * An edge code's catalogue entry (the audience codes are the edge's too), or undefined.
 * @param {string} code
 * @returns {{ status: number, message: string, alsoStatus?: readonly number[] } | undefined}
 */
export function edgeErrorEntry(code) {
  return /** @type {Record<string, any>} */ (EDGE_ERRORS)[code] ?? /** @type {Record<string, any>} */ (AUDIENCE_ERRORS)[code];
}
