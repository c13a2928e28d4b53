// The audience listener (docs/reference/audience-protocol.md#endpoints): public, audience routes only. Per-address
// limits, the WebSocket/SSE/poll streams, votes and taps, the page and its media, and the musicians'
// part pages behind their key.

import { existsSync } from 'node:fs';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { MAX_CLIENT_FRAME_BYTES } from '#core/protocol/envelope.js';
import { BadInput } from '../logs/metrics.js';
import { createRateLimiter } from '../guards/rate-limit.js';
import { guardConnections } from '../guards/connection-guard.js';
import { createProbeKey } from '../guards/probe-key.js';
import { createPartKey } from '../parts/part-key.js';
import { createPartPages } from '../parts/part-pages.js';
import wsRoutes from '../routes/ws.js';
import sseRoutes from '../routes/sse.js';
import pollRoutes from '../routes/poll.js';
import audienceMethodRoutes from '../routes/audience-methods.js';
import timeRoutes from '../routes/time.js';
import staticRoutes from '../routes/static.js';
import voteRoutes from '../routes/vote.js';
import partRoutes from '../routes/part.js';
import partStreamRoutes from '../routes/part-stream.js';
import { sendError, sendThrownError, thrownStatus } from '../routes/send-error.js';
import { warnMediaLinks } from '../score/media-link-warning.js';
import { createNotationMediaRoute } from '../routes/notation-media.js';

/** Keep-alive sockets between requests (a polling phone asks every ≤ 2 s). Fastify's default is 72 s. */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/**
 * permessage-deflate without context takeover, offered to lean-stream sockets only (routes/ws.js):
 * the hub compresses each lean update once for all of them; ws never compresses its own small
 * sends (pongs). No clientMaxWindowBits: ws would then refuse (400) every offer that lacks
 * client_max_window_bits, which is Firefox's bare `permessage-deflate` (docs/explanation/browser-differences.md#what-differs)
 * with client_no_context_takeover ws frees a socket's inflate window after
 * each message anyway, so no window is held per phone.
 */
const PER_MESSAGE_DEFLATE = { serverNoContextTakeover: true, clientNoContextTakeover: true, threshold: 64 * 1024 };

/**
 * Build the audience listener (not listening yet).
 * @param {object} c
 * @param {import('./show.js').Show} c.show
 * @param {import('../logs/metrics.js').Metrics} c.metrics
 * @param {() => number} c.now
 * @param {ReturnType<typeof import('../guards/overflow.js').createOverflow>} c.overflow
 * @param {ReturnType<typeof import('../votes/vote-desk.js').createVoteDesk>} c.votes
 * @param {ReturnType<typeof import('../votes/reaction-meter.js').createReactionMeter>} c.reactions
 * @param {import('../logs/log.js').Log} c.log
 * @param {import('../logs/log.js').Log} c.printed the terminal's log (one line for a phone's 500)
 * @param {ReturnType<typeof import('../logs/server-logs.js').openServerLogs>['fastifyLogging']} c.fastifyLogging
 * @param {() => { dir: string, assets: any[] }} c.media the current score's media
 * @param {ReturnType<typeof import('../notation/notation-service.js').createNotationService>} c.notation the engraved notation (routes/notation.js)
 * @param {{ rateLimit?: any, maxPerAddress: number, trustProxy: boolean, firstRequestTimeoutMs: number,
 *   audienceDist: string, partDist: string, buildAudienceApp?: () => Promise<void>, partKeyFile?: string | null }} c.settings
 *   partKeyFile: where the part-page key is kept (part-key.js)
 */
export async function buildAudienceListener({
  show,
  metrics,
  now,
  overflow,
  votes,
  reactions,
  log,
  printed,
  fastifyLogging,
  media,
  notation,
  settings,
}) {
  // --trust-proxy believes X-Forwarded-For only from this machine (a reverse proxy next to the
  // server); a phone cannot pick its own address by sending the header.
  const audience = Fastify({
    ...fastifyLogging('audience'),
    bodyLimit: 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: settings.trustProxy ? ['127.0.0.1', '::1'] : false,
  });
  const guard = guardConnections({
    server: audience.server,
    maxPerAddress: settings.maxPerAddress > 0 ? settings.maxPerAddress : Infinity,
    firstRequestTimeoutMs: settings.firstRequestTimeoutMs,
    metrics,
    log,
  });
  await audience.register(websocket, {
    options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate: PER_MESSAGE_DEFLATE, clientTracking: false },
  });
  const limiter = createRateLimiter(settings.rateLimit);
  const sweepLimiter = setInterval(() => limiter.sweep(), 10_000);
  sweepLimiter.unref();
  audience.addHook('onRequest', async (request, reply) => {
    if (settings.trustProxy && !guard.admitProxied(request, reply)) {
      return sendError(reply, 'TOO_MANY_CONNECTIONS', { headers: { 'retry-after': '10' } });
    }
    if (!limiter.take(request.ip)) {
      metrics.badInput.inc({ source: BadInput.RATE });
      return sendError(reply, 'RATE_LIMITED', { headers: { 'retry-after': '1' } });
    }
    if (request.method === 'GET' && (request.url === '/' || request.url.startsWith('/?')) && overflow.full()) {
      return overflow.reject(reply, 'page', request.url);
    }
  });
  audience.setErrorHandler((/** @type {any} */ error, request, reply) => {
    const status = thrownStatus(error);
    if (status < 500) metrics.badInput.inc({ source: BadInput.QUERY });
    else {
      // A phone got a 500: the stack goes to the log file, one line to the terminal and console.
      request.log.error({ err: error, method: request.method, url: request.url }, 'audience request failed');
      printed.error(`audience ${request.method} ${request.url.split('?')[0]} failed: ${error.message}`);
    }
    sendThrownError(reply, error);
  });
  const probeKey = createProbeKey();
  const routeOptions = { show, metrics, now, overflow, isProbe: probeKey.isProbe, votes, reactions };
  for (const routes of [wsRoutes, sseRoutes, pollRoutes, timeRoutes, audienceMethodRoutes, voteRoutes])
    await audience.register(routes, routeOptions);
  // dist/audience is prebuilt (npm install builds it; the desktop app ships it). The server never
  // imports the builder (esbuild is a dev tool): a source checkout injects it for a deleted dist/.
  if ((!existsSync(settings.audienceDist) || !existsSync(settings.partDist)) && settings.buildAudienceApp)
    await settings.buildAudienceApp();
  // The engraved pages a view shows the audience, as media (routes/notation-media.js).
  const notationMedia = createNotationMediaRoute({ notation, metrics, score: () => show.engine.score() });
  await audience.register(staticRoutes, { dir: settings.audienceDist, media, notationMedia, onOutside: warnMediaLinks({ metrics, log }) });
  // Musicians' part pages: behind a key only the console shows (routes/part.js, docs/explanation/threat-model.md).
  const partKey = await createPartKey({
    file: settings.partKeyFile ?? null,
    onError: (err) => log.warn(`cannot save the part-page key (${err.message}); it works until this server stops`),
  });
  const partPages = createPartPages();
  await audience.register(partRoutes, { dir: settings.partDist, show, metrics, partKey, partPages, log, notation });
  await audience.register(partStreamRoutes, { prefix: '/part/:key', partKey, routeOptions });
  return { audience, probeKey, partKey, partPages, stopSweeping: () => clearInterval(sweepLimiter) };
}
