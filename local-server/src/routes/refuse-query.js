// A bad stream query on /ws, /sse or /poll: the catalogue's status and body (docs/reference/errors.md#audience-errors)
// counted as tutti_bad_input_total{source="query"}.

import { sendError } from './send-error.js';
import { BadInput } from '../logs/metrics.js';

/**
 * @param {import('fastify').FastifyReply} reply
 * @param {import('../logs/metrics.js').Metrics} metrics
 * @param {import('#core/protocol/http-errors.js').AudienceErrorCode} code from parseStreamQuery (core/stream/query.js)
 */
export function refuseQuery(reply, metrics, code) {
  metrics.badInput.inc({ source: BadInput.QUERY });
  return sendError(reply, code);
}
