// POST /vote: a vote from a viewer on SSE or polling, which has no socket to send it on (docs/reference/audience-protocol.md#audience-voices)
// . The body is the WebSocket vote without `type`; JSON only, so a page on
// another origin cannot send one without a CORS preflight this server never answers.

import { parseVote, encodeVoteReply } from '#core/votes/vote-message.js';
import { isAccepted } from '#core/votes/tally.js';
import { BadInput } from '../logs/metrics.js';
import { MAX_TAPS_PER_FRAME } from '#core/protocol/envelope.js';
import { sendError } from './send-error.js';

/** HTTP status of each refusal: the vote was well-formed but not counted. */
const REFUSED_STATUS = { closed: 409, unknown_option: 409, full: 503 };

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ metrics: import('../logs/metrics.js').Metrics, votes: ReturnType<typeof import('../votes/vote-desk.js').createVoteDesk>, reactions: ReturnType<typeof import('../votes/reaction-meter.js').createReactionMeter> }} options
 */
export default async function voteRoutes(app, { metrics, votes, reactions }) {
  // POST /tap: reaction taps from an SSE/poll viewer, {"n": 1–10} (each request is under the per-address limit).
  app.post('/tap', async (request, reply) => {
    const n = /** @type {any} */ (request.body)?.n;
    if (
      !String(request.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('application/json') ||
      !Number.isInteger(n) ||
      n < 1 ||
      n > MAX_TAPS_PER_FRAME
    ) {
      metrics.badInput.inc({ source: BadInput.VOTE });
      return sendError(reply, 'BAD_TAP', { message: `send {"n": 1 to ${MAX_TAPS_PER_FRAME}} as application/json` });
    }
    return reply.code(reactions.tap(n, 'venue') ? 204 : 409).send();
  });

  app.post('/vote', async (request, reply) => {
    if (
      !String(request.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('application/json')
    ) {
      metrics.badInput.inc({ source: BadInput.VOTE });
      return sendError(reply, 'BAD_VOTE', { status: 415 });
    }
    const parsed = parseVote(request.body);
    if (parsed.ok === false) {
      metrics.badInput.inc({ source: BadInput.VOTE });
      return sendError(reply, 'BAD_VOTE', { message: parsed.reason });
    }
    const outcome = votes.cast(parsed.vote);
    const counted = isAccepted(outcome);
    return reply
      .code(counted ? 200 : (REFUSED_STATUS[outcome] ?? 409))
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(encodeVoteReply(parsed.vote.key, counted ? null : outcome));
  });
}
