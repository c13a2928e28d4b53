// The engraved pages as the audience's media (docs/reference/notation.md#the-score-on-the-audiences-phones):
// GET /media/notation/<part>/phone.json (the bar map) and /media/notation/<part>/phone/<n>.svg,
// the same URLs the edge serves once the pages are uploaded (edge/media-sync.js). No part key: a
// phone gets only the parts some view of the current score names (core/score/audience-score.js),
// so nobody reads the other parts ahead of time; anything else is refused and counted. While an
// engraving is made the answer is 503 with Retry-After, as on the part pages (routes/notation.js).

import { AUDIENCE_NOTATION_LAYOUT, parseNotationMediaPath, partsShownToAudience } from '#core/score/audience-score.js';
import { BadInput } from '../logs/metrics.js';
import { sendError } from './send-error.js';
import { createNotationAnswer } from './notation.js';

/**
 * The handler for a media path under notation/ (routes/static.js hands it over).
 * @param {{ notation: ReturnType<typeof import('../notation/notation-service.js').createNotationService>,
 *   metrics: import('../logs/metrics.js').Metrics, score: () => any }} options `score`: the loaded score
 * @returns {(request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply, rel: string) => Promise<unknown>}
 */
export function createNotationMediaRoute({ notation, metrics, score }) {
  // No font route here (nor at the edge): a page with a metronome mark carries its music font.
  const answer = createNotationAnswer({ notation, withFont: true });
  const countBad = () => metrics.badInput.inc({ source: BadInput.HTTP_BODY });
  /** The parts shown, worked out once per loaded (or edited) score. */
  let shown = { score: null, parts: /** @type {string[]} */ ([]) };
  const shownParts = () => {
    const current = score();
    if (shown.score !== current) shown = { score: current, parts: partsShownToAudience(current) };
    return shown.parts;
  };

  return async (request, reply, rel) => {
    reply.header('cache-control', 'no-cache');
    const named = parseNotationMediaPath(rel);
    if (!named || named.layout !== AUDIENCE_NOTATION_LAYOUT || named.page === 0) {
      countBad();
      return sendError(reply, 'NOT_FOUND');
    }
    if (!shownParts().includes(named.part)) {
      countBad();
      return sendError(reply, 'NOTATION_NOT_SHOWN', {
        message: `no view of this score shows the audience ${JSON.stringify(named.part)}`,
      });
    }
    return answer(request, reply, named.part, named.layout, named.page);
  };
}
