// One error catalogue for both servers (docs/reference/errors.md#audience-errors): the venue (Fastify) and the edge
// worker answer the same bad audience request with the same status and the same body,
// `{"error": CODE, "message": sentence}`, and every other error the venue sends (control API,
// console, part pages, voices) is listed here too with its status, default sentence and the docs
// page and anchor that document it. Runtime-free: the venue sends every one through sendError
// (local-server/src/routes/send-error.js), the edge wraps the body in a Response.

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
 * The venue's own codes (its control API, console, part pages and audience voices): code → status,
 * default sentence, and `doc`, the docs page and anchor that document it (`docs/…/page.md#anchor`). `alsoStatus` lists the other
 * statuses the same code is answered with (a vote of the wrong Content-Type is 415, not 400). Codes the venue
 * shares with the audience catalogue (NOT_FOUND) are not repeated.
 */
export const VENUE_ERRORS = Object.freeze({
  // Audience listener, every request (docs/explanation/threat-model.md#availability-attacks-tried-on-the-venue-server).
  RATE_LIMITED: { status: 429, message: 'too many requests from this address; slow down', doc: 'docs/reference/errors.md#audience-errors' },
  TOO_MANY_CONNECTIONS: {
    status: 429,
    message: 'too many open connections from this address',
    doc: 'docs/reference/errors.md#audience-errors',
  },
  FULL: { status: 503, message: 'This venue server is full; try again shortly.', doc: 'docs/reference/errors.md#audience-errors' },
  // Audience voices.
  BAD_VOTE: {
    status: 400,
    alsoStatus: [415],
    message: 'send the vote as application/json',
    doc: 'docs/reference/audience-protocol.md#endpoints',
  },
  BAD_TAP: { status: 400, message: 'send {"n": 1 to 10} as application/json', doc: 'docs/reference/audience-protocol.md#endpoints' },
  // Part pages.
  PART_KEY: {
    status: 403,
    message: "this part-page link is not valid: scan the musicians' QR code on the console again",
    doc: 'docs/reference/audience-protocol.md#endpoints',
  },
  PART_PAGE_NOT_BUILT: { status: 503, message: 'run npm run build on the server', doc: 'docs/reference/errors.md#venue-errors' },
  BAD_REPORT: { status: 400, message: 'the part-page report is malformed', doc: 'docs/reference/audience-protocol.md#endpoints' },
  // Notation under the part pages' key (docs/reference/notation.md#notation-routes).
  NO_NOTATION: { status: 404, message: 'this score names no notation file', doc: 'docs/reference/notation.md#notation-routes' },
  NOTATION_PART: { status: 404, message: 'the notation has no such part', doc: 'docs/reference/notation.md#notation-routes' },
  BAD_NOTATION_REQUEST: {
    status: 400,
    message: 'ask for /notation/<part id or all>.json or /notation/<part id or all>/<page>.svg',
    doc: 'docs/reference/notation.md#notation-routes',
  },
  BAD_LAYOUT: {
    status: 400,
    message: 'layout is tablet-landscape, tablet-portrait or phone',
    doc: 'docs/reference/notation.md#notation-routes',
  },
  NO_SUCH_PAGE: { status: 404, message: 'the engraving has no such page', doc: 'docs/reference/notation.md#notation-routes' },
  NOTATION_ENGRAVING: {
    status: 503,
    message: 'the notation is being engraved; try again shortly',
    doc: 'docs/reference/notation.md#notation-routes',
  },
  NOTATION_FAILED: { status: 422, message: 'the notation could not be engraved', doc: 'docs/reference/notation.md#notation-routes' },
  NOTATION_MISMATCH: { status: 409, message: 'the notation does not match the score', doc: 'docs/reference/notation.md#notation-routes' },
  // The engraved pages as the audience's media (docs/reference/notation.md#the-score-on-the-audiences-phones).
  NOTATION_NOT_SHOWN: {
    status: 404,
    message: 'no view of this score shows the audience that part',
    doc: 'docs/reference/notation.md#the-score-on-the-audiences-phones',
  },
  // Control listener guard.
  MISDIRECTED_HOST: {
    status: 421,
    message: 'the control listener answers only to 127.0.0.1, localhost or [::1]',
    doc: 'docs/reference/control-api.md#endpoints',
  },
  FOREIGN_ORIGIN: {
    status: 403,
    message: 'the control API answers only the console page on this listener',
    doc: 'docs/reference/control-api.md#endpoints',
  },
  UNAUTHORIZED: { status: 401, message: 'missing or wrong bearer token', doc: 'docs/reference/control-api.md#endpoints' },
  AUTH_THROTTLED: {
    status: 429,
    message: 'too many failed token checks; wait and retry with the right token',
    doc: 'docs/reference/control-api.md#endpoints',
  },
  // Control API bodies and the engine's refusals.
  BAD_JSON: { status: 400, message: 'body is not valid JSON', doc: 'docs/reference/errors.md#venue-errors' },
  BAD_BODY: { status: 400, message: 'seek needs "bar" (and optionally "beat")', doc: 'docs/reference/errors.md#venue-errors' },
  BAD_POSITION: { status: 400, message: 'no such bar or beat in this score', doc: 'docs/reference/errors.md#venue-errors' },
  BAD_TEMPO: { status: 400, message: 'bpm is out of range', doc: 'docs/reference/errors.md#venue-errors' },
  // Rehearsing (docs/how-to/rehearse.md#rehearsing): start from, count-in, loops.
  BAD_PLACE: {
    status: 400,
    message: 'a place is {"section"}, {"printedBar", "beat"?} or {"bar", "beat"?}',
    doc: 'docs/how-to/rehearse.md#rehearsing',
  },
  UNKNOWN_SECTION: { status: 400, message: 'the score has no such section', doc: 'docs/how-to/rehearse.md#rehearsing' },
  BAD_COUNT_IN: { status: 400, message: 'countInBars is an integer from 0 to 8', doc: 'docs/how-to/rehearse.md#rehearsing' },
  BAD_RANGE: { status: 400, message: 'a loop must end after it starts, inside the piece', doc: 'docs/how-to/rehearse.md#rehearsing' },
  BAD_PASSES: {
    status: 400,
    message: 'passes is an integer from 1 to 99, or null (until released)',
    doc: 'docs/how-to/rehearse.md#rehearsing',
  },
  NO_LOOP: { status: 409, message: 'no loop is set', doc: 'docs/how-to/rehearse.md#rehearsing' },
  INVALID_SCORE: { status: 400, message: 'the score has problems', doc: 'docs/reference/control-api.md#endpoints' },
  EXISTS: { status: 409, message: 'the target file exists; pass force', doc: 'docs/how-to/import.md#bringing-a-piece-in' },
  IMPORT_FAILED: { status: 400, message: 'the file could not be imported', doc: 'docs/how-to/import.md#bringing-a-piece-in' },
  NO_SUCH_RECORD: { status: 404, message: 'no such performance record', doc: 'docs/reference/control-api.md#endpoints' },
  BAD_QUERY: { status: 400, message: 'from and limit are whole numbers', doc: 'docs/how-to/record-and-replay.md#replaying-a-record' },
  NO_SUCH_MEDIA: {
    status: 404,
    message: 'the record names no such media file, or it is gone',
    doc: 'docs/how-to/record-and-replay.md#replaying-a-record',
  },
  BAD_MEDIA_PATH: {
    status: 400,
    message: 'a media path is relative, without empty, "." or ".." segments',
    doc: 'docs/how-to/record-and-replay.md#replaying-a-record',
  },
  // The score editor (docs/reference/score-editing-api.md): `doc` names the page and its anchor.
  STALE_REVISION: {
    status: 409,
    message: 'the score file changed on disk since it was read; reload it, or save again with currentRevision to overwrite',
    doc: 'docs/reference/score-editing-api.md#revision',
  },
  PLAYING: {
    status: 409,
    message: 'the show is playing; stop it to save, or send "apply": true to apply the edit at once',
    doc: 'docs/reference/score-editing-api.md#apply-while-playing',
  },
  SYMLINK_REFUSED: {
    status: 409,
    message: 'the file to write is a symbolic link; Tutti never writes through a link',
    doc: 'docs/reference/score-editing-api.md#safe-writes',
  },
  BAD_MEDIA_NAME: {
    status: 400,
    message: 'give ?name= a plain file name such as bell.wav',
    doc: 'docs/reference/score-editing-api.md#media',
  },
  BAD_MEDIA_TYPE: {
    status: 415,
    message: 'the file is not a PNG, JPEG, GIF or WebP image nor a WAV, MP3, Ogg, FLAC or M4A sound named as such',
    doc: 'docs/reference/score-editing-api.md#media',
  },
  MEDIA_TOO_BIG: {
    status: 413,
    message: 'the file is larger than the limit per media file',
    doc: 'docs/reference/score-editing-api.md#media',
  },
  // The console's cards.
  NO_SUCH_TARGET: { status: 404, message: 'no such OSC target', doc: 'docs/how-to/connect-osc-tools.md#on-time-in-every-receiver' },
  BAD_EDGE_URL: { status: 400, message: 'the edge URL is not valid', doc: 'docs/reference/errors.md#venue-errors' },
  EDGE_OFF: {
    status: 409,
    message: 'the edge mirror is off; switch it on with POST /api/edge',
    doc: 'docs/reference/control-api.md#endpoints',
  },
  ALREADY_PLAYING: {
    status: 409,
    message: 'the show is already playing; a count-in starts a stopped or paused show',
    doc: 'docs/reference/errors.md#venue-errors',
  },
  COUNTING_IN: { status: 409, message: 'a count-in is already running', doc: 'docs/reference/errors.md#venue-errors' },
  TOO_MANY_STREAMS: { status: 429, message: 'too many consoles follow the live feed', doc: 'docs/reference/errors.md#venue-errors' },
  // Anything unforeseen: the details go to the log, never to the client.
  ERROR: { status: 500, message: 'internal error', doc: 'docs/reference/errors.md#venue-errors' },
});

/** @typedef {keyof typeof VENUE_ERRORS} VenueErrorCode */

/**
 * A venue code's catalogue entry, from either table (the audience codes are the venue's too).
 * @param {string} code
 * @returns {{ status: number, message: string, alsoStatus?: readonly number[] } | undefined}
 */
export function venueError(code) {
  return /** @type {Record<string, any>} */ (VENUE_ERRORS)[code] ?? /** @type {Record<string, any>} */ (AUDIENCE_ERRORS)[code];
}

/**
 * The JSON body of an error answer.
 * @param {string} code an AUDIENCE_ERRORS key, or a code of one server's own endpoints
 * @param {string} [message] defaults to the catalogue's sentence for the code
 * @returns {{ error: string, message: string }}
 */
export function errorBody(code, message) {
  return { error: code, message: message ?? venueError(code)?.message ?? code };
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
 * The edge worker's own codes (docs/explanation/edge-design.md): code → status and default sentence, every
 * one sent through edgeError (edge-worker/src/http/http.js). `alsoStatus` lists the other statuses the
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
