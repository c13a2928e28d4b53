// The engraved notation under the part pages' key (docs/reference/notation.md#notation-routes;
// SPEC §10): GET /part/<key>/notation/<partId>.json[?layout=L], the bar map, and
// GET /part/<key>/notation/<partId>/<n>.svg[?layout=L], one page. Called by routes/part.js once
// the key is checked. While an engraving is made the answer is 503 with Retry-After (the request
// moves it to the front of the queue); a notation that cannot be engraved, or that no longer
// matches the score, is answered with one sentence saying why, and the show goes on.

import { etagMatches } from '#core/protocol/media.js';
import { BadInput } from '../logs/metrics.js';
import { layoutNamed } from '../notation/layouts.js';
import { sendError } from './send-error.js';

const ROUTE = /^\/notation\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})(?:\.json|\/(\d{1,5})\.svg)$/;
const FONT = /^\/notation\/font\/([A-Za-z0-9_-]{22})\.woff2$/;
/** The font's URL names its hash: it never changes, so it is fetched once. */
const FOREVER = 'public, max-age=31536000, immutable';
/**
 * A page is an SVG document made from a file someone sent: nothing in it may run or load, except
 * its own styles and the music font Verovio embeds (a data: URL). As media are served.
 */
export const NOTATION_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; sandbox";
/** Seconds a tablet waits before asking again while its engraving is made. */
export const RETRY_AFTER_S = 2;

/**
 * The answer for one part's bar map (`page` null) or one page, once the request is read: shared by
 * the part pages' route here and the audience's media route (routes/notation-media.js).
 * @param {{ notation: ReturnType<typeof import('../notation/notation-service.js').createNotationService>, withFont?: boolean }} options
 *   `withFont`: pages carry the music font they name (where no font route is: the audience's media)
 * @returns {(request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply, partId: string, layout: string, page: number | null) => Promise<unknown>}
 */
export function createNotationAnswer({ notation, withFont = false }) {
  /** The answer for a lookup that found no engraving to serve. */
  const notReady = (reply, found) => {
    if (found.kind === 'none') return sendError(reply, 'NO_NOTATION');
    if (found.kind === 'no-part') return sendError(reply, 'NOTATION_PART', { message: found.message });
    if (found.kind === 'pending') return sendError(reply, 'NOTATION_ENGRAVING', { headers: { 'retry-after': String(RETRY_AFTER_S) } });
    if (found.kind === 'mismatch') return sendError(reply, 'NOTATION_MISMATCH', { message: found.message });
    if (found.kind === 'no-page') return sendError(reply, 'NO_SUCH_PAGE', { message: `the engraving has ${found.pages} page(s)` });
    return sendError(reply, 'NOTATION_FAILED', { message: `the notation could not be engraved: ${found.message}` });
  };

  return async (request, reply, partId, layout, page) => {
    if (page === null) {
      const found = notation.barMap(partId, layout);
      if (found.kind !== 'map') return notReady(reply, found);
      return reply.type('application/json; charset=utf-8').send(found.json);
    }
    // Pages were gzipped by the worker (docs/reference/notation.md#page-size): sent as they are.
    const gzipped = !withFont && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const found = await notation.page(partId, layout, page, { gzipped, withFont });
    if (found.kind !== 'page') return notReady(reply, found);
    // Another encoding, another entity tag (RFC 9110 §8.8.3).
    const etag = gzipped ? found.etag.replace(/"$/, '-gz"') : found.etag;
    if (gzipped) reply.header('content-encoding', 'gzip');
    reply
      .header('vary', 'accept-encoding')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', NOTATION_CSP);
    if (etagMatches(request.headers['if-none-match'], [etag])) return reply.code(304).send();
    return reply.type('image/svg+xml; charset=utf-8').send(found.body);
  };
}

/**
 * The handler for every /part/<key>/notation/… request.
 * @param {{ notation: ReturnType<typeof import('../notation/notation-service.js').createNotationService>, metrics: import('../logs/metrics.js').Metrics }} options
 * @returns {(request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply, rest: string) => Promise<unknown>}
 */
export function createNotationRoute({ notation, metrics }) {
  const countBad = () => metrics.badInput.inc({ source: BadInput.HTTP_BODY });
  const answer = createNotationAnswer({ notation });

  return async (request, reply, rest) => {
    const font = FONT.exec(rest);
    if (font) {
      const bytes = await notation.font(font[1]);
      if (!bytes) return sendError(reply, 'NO_SUCH_PAGE', { message: 'the venue has no music font by that name' });
      return reply.header('cache-control', FOREVER).type('font/woff2').send(bytes);
    }
    reply.header('cache-control', 'no-cache');
    const match = ROUTE.exec(rest);
    if (!match) {
      countBad();
      return sendError(reply, 'BAD_NOTATION_REQUEST');
    }
    const query = /** @type {Record<string, unknown>} */ (request.query ?? {});
    const layout = layoutNamed(query.layout);
    if (!layout) {
      countBad();
      return sendError(reply, 'BAD_LAYOUT');
    }
    const [, partId, pageText] = match;
    const page = pageText === undefined ? null : Number(pageText);
    if (page !== null && page < 1) {
      countBad();
      return sendError(reply, 'NO_SUCH_PAGE', { message: 'pages are numbered from 1' });
    }
    return answer(request, reply, partId, layout.name, page);
  };
}
