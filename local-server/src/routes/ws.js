// GET /ws: the WebSocket transport. The hub writes pre-built frames; this file only handles what a
// viewer may send (ping, resync) and rejects everything else (docs/reference/audience-protocol.md#endpoints).

import { parseClientFrame, encodePong, CloseCode } from '#core/protocol/envelope.js';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';
import { parseStreamQuery } from '#core/stream/query.js';
import { createTokenBucket } from '#core/util/token-bucket.js';
import { BadInput } from '../logs/metrics.js';
import { encodeVoteReply } from '#core/votes/vote-message.js';
import { isAccepted } from '#core/votes/tally.js';
import { createSocketVoter, createTapBudget } from '../votes/socket-voter.js';
import { refuseQuery } from './refuse-query.js';
import { sendError } from './send-error.js';
import { releaseUpgradeState } from '../hub/ws-frame.js';

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: ReturnType<typeof import('../show/show.js').createShow>, metrics: import('../logs/metrics.js').Metrics, now: () => number, overflow: import('../guards/overflow.js').Overflow, isProbe: (request: import('fastify').FastifyRequest) => boolean, votes: ReturnType<typeof import('../votes/vote-desk.js').createVoteDesk>, reactions: ReturnType<typeof import('../votes/reaction-meter.js').createReactionMeter> }} options
 */
export default async function wsRoutes(app, { show, metrics, now, overflow, isProbe, votes, reactions }) {
  // Full and no edge to send viewers to: answer the handshake itself with 503 + Retry-After.
  // The console's latency probe is not a viewer: it neither takes a slot nor is turned away.
  const streamOf = (request) => parseStreamQuery({ stream: /** @type {any} */ (request.query).stream });
  const turnAway = async (request, reply) => {
    const parsed = streamOf(request);
    if (!parsed.ok) return refuseQuery(reply, metrics, parsed.code);
    const stream = parsed.stream;
    // Compression is negotiated on the lean stream only, where one pre-compressed frame serves
    // every client (hub/ws-frame.js); full-stream sockets keep no zlib state at all.
    if (stream !== 'lean') delete request.raw.headers['sec-websocket-extensions'];
    if (!isProbe(request) && overflow.fullFor(request.ip) && !overflow.redirects()) return overflow.reject(reply, 'ws', '/ws');
  };
  // A plain GET (no upgrade) gets 426, as at the edge (docs/reference/errors.md#audience-errors).
  const upgradeRequired = async (_request, reply) => sendError(reply, 'UPGRADE_REQUIRED');
  app.route({
    method: 'GET',
    url: '/ws',
    preValidation: turnAway,
    handler: upgradeRequired,
    wsHandler: (socket, request) => {
      const probe = isProbe(request);
      if (!probe && overflow.fullFor(request.ip)) {
        overflow.count('ws');
        socket.close(CloseCode.TRY_AGAIN_LATER, overflow.reason());
        return;
      }
      if (!probe) overflow.track(request.ip, socket);
      const query = streamOf(request);
      const sink = show.hub.addWebSocket(socket, query.ok ? query.stream : 'full', { counted: !probe });
      // The viewer's frame budgets are one table for venue and edge (core/protocol/viewer-limits.js).
      // Each is made when first needed: a bucket starts full, and one untouched since the join is
      // full anyway, so nothing changes but the memory of viewers that never send (issue 27).
      /** @type {import('#core/util/token-bucket.js').TokenBucket | null} */
      let budget = null;
      /** @type {import('#core/util/token-bucket.js').TokenBucket | null} */
      let resyncBudget = null;
      /** @type {ReturnType<typeof createSocketVoter> | null} */
      let voter = null;
      /** @type {ReturnType<typeof createTapBudget> | null} */
      let tapBudget = null;

      const reject = (source, code, reason) => {
        metrics.badInput.inc({ source });
        socket.close(code, reason);
      };

      socket.on('message', (data, isBinary) => {
        budget ??= createTokenBucket({ ...VIEWER_LIMITS.frames, now: performance.now() });
        if (!budget.take(performance.now())) return reject(BadInput.WS_FLOOD, CloseCode.POLICY_VIOLATION, 'too many frames');
        if (isBinary) return reject(BadInput.WS_BINARY, CloseCode.POLICY_VIOLATION, 'binary frames are not accepted');
        const parsed = parseClientFrame(data.toString());
        // A vote that does not parse is counted as a bad vote (docs/reference/audience-protocol.md#audience-voices).
        if (parsed.ok === false)
          return reject(
            /** @type {any} */ (parsed).vote ? BadInput.VOTE : BadInput.WS_FRAME,
            CloseCode.POLICY_VIOLATION,
            /** @type {any} */ (parsed).reason,
          );
        const frame = /** @type {any} */ (parsed).frame;
        if (frame.type === 'ping') socket.send(encodePong(frame.id, frame.c, now()));
        else if (frame.type === 'tap') {
          tapBudget ??= createTapBudget();
          const fit = tapBudget(frame.n);
          if (fit > 0) reactions.tap(fit, 'venue');
          if (fit < frame.n) metrics.taps.inc({ where: 'dropped' }, frame.n - fit);
        } else if (frame.type === 'vote') {
          voter ??= createSocketVoter(votes, metrics);
          const result = voter(frame.vote);
          if ('close' in result) return reject(BadInput.VOTE, CloseCode.POLICY_VIOLATION, result.close);
          socket.send(encodeVoteReply(frame.vote.key, isAccepted(result.outcome) ? null : result.outcome));
        } else if ((resyncBudget ??= createTokenBucket({ ...VIEWER_LIMITS.resyncs, now: performance.now() })).take(performance.now()))
          show.hub.resync(sink);
        else metrics.badInput.inc({ source: BadInput.WS_RESYNC });
      });

      // Nothing of the upgrade request is kept per viewer; this file's own listener replaces the plugin's.
      releaseUpgradeState(socket);
      // ws reports oversize frames (maxPayload → close 1009) and invalid UTF-8 (1007) as errors.
      socket.on('error', (err) => {
        const code = /** @type {any} */ (err).code;
        metrics.badInput.inc({ source: code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? BadInput.WS_OVERSIZE : BadInput.WS_FRAME });
      });
    },
  });
}
