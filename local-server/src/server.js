// Builds and starts a show server: the audience listener (audience routes only) and the
// control listener (127.0.0.1 only, bearer token). Used by `tutti serve`, the desktop console
// and the tests.

import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { MAX_CLIENT_FRAME_BYTES } from '#core/protocol/envelope.js';
import { createMetrics, BadInput } from './metrics.js';
import { createShow } from './show.js';
import { loadScoreFile } from './score-file.js';
import { createOverflow } from './overflow.js';
import { bearerMatches } from './auth.js';
import { createLog } from './log.js';
import { createRateLimiter } from './rate-limit.js';
import { createOscOut, startOscIn } from './osc.js';
import { createEdgeMirror } from './edge-mirror.js';
import { readResumeFile, persistResumePoint } from './resume-file.js';
import wsRoutes from './routes/ws.js';
import sseRoutes from './routes/sse.js';
import pollRoutes from './routes/poll.js';
import timeRoutes from './routes/time.js';
import controlRoutes, { controlErrorHandler, acceptJsonBodiesOfAnyType } from './routes/control.js';
import staticRoutes from './routes/static.js';
import { buildAudienceApp } from '../audience/build.js';

export const DEFAULT_SCORE = fileURLToPath(new URL('../../scores/demo.score.json', import.meta.url));
export const AUDIENCE_DIST = fileURLToPath(new URL('../../dist/audience', import.meta.url));

/**
 * A wall clock that cannot jump: read once, then advanced by the monotonic clock, so an NTP
 * step during a show cannot move beats. Shared by `t`, `position.at`, `/time` and pongs.
 */
export function createServerClock() {
  const base = Date.now() - performance.now();
  return () => base + performance.now();
}

/** Console UI files served without the token (the page reads the token from its URL). */
const isConsoleFile = (url) => url === '/' || url.startsWith('/?') || url.startsWith('/console/') || url === '/favicon.ico';

/** Raised for problems a user must fix (bad score, port in use); carries a code. */
export class StartupError extends Error {
  constructor(code, message, problems = []) {
    super(message);
    this.code = code;
    this.problems = problems;
  }
}

/**
 * @typedef {object} ShowServerOptions
 * @property {string} [scorePath]
 * @property {string} [host] audience listener address (default 0.0.0.0)
 * @property {number} [port] audience port (default 8080; 0 = any)
 * @property {number} [controlPort] control port on 127.0.0.1 (default 8081; 0 = any)
 * @property {string} [token] control bearer token (random when absent)
 * @property {boolean} [autoplay]
 * @property {Array<{ host: string, port: number }>} [oscTargets]
 * @property {boolean} [oscPlain] beats and cues as plain messages at their time (--osc-plain)
 * @property {number | null} [oscInPort]
 * @property {string | null} [edgeUrl]
 * @property {string | null} [edgeToken]
 * @property {number | null} [maxClients]
 * @property {string | null} [stateFile] persist the show position here and resume from it after a crash
 * @property {number} [lookaheadMs]
 * @property {object} [hubOptions] fan-out tuning (tests)
 * @property {{ ratePerSecond?: number, burst?: number }} [rateLimit] per-address audience request limit
 * @property {import('./log.js').Log} [log]
 */

/**
 * Start a show server. Rejects with a StartupError for problems the user must fix.
 * @param {ShowServerOptions} [options]
 */
export async function startShowServer(options = {}) {
  const stateFile = options.stateFile ?? null;
  const saved = stateFile ? await readResumeFile(stateFile) : null;
  const {
    scorePath = saved?.scorePath ?? DEFAULT_SCORE, host = '0.0.0.0', port = 8080, controlPort = 8081,
    autoplay = false, oscTargets = [], oscPlain = false, oscInPort = null, edgeUrl = null, edgeToken = null,
    maxClients = null, lookaheadMs, hubOptions, rateLimit,
  } = options;
  const token = options.token ?? randomBytes(18).toString('base64url');
  const log = options.log ?? createLog({ redact: [token, edgeToken] });
  const now = createServerClock();
  const metrics = createMetrics();

  const loaded = await loadScoreFile(scorePath);
  if (!loaded.ok) {
    throw new StartupError('INVALID_SCORE', `The score ${scorePath} has ${loaded.problems.length} problem(s).`, loaded.problems);
  }
  const show = createShow({ loaded: { score: loaded.score, dir: loaded.dir, path: scorePath }, now, metrics, lookaheadMs, hubOptions });
  const osc = createOscOut({ targets: oscTargets, show, metrics, log, plain: oscPlain, now });

  // The mirror copies the current score's media (the files behind /media/…) to the edge too.
  const edge = createEdgeMirror({ stream: show.stream, log, metrics, media: () => ({ dir: show.source().dir, assets: show.engine.score().assets ?? [] }) });
  show.onEnvelope((json) => edge.publish(json));
  if (edgeUrl) await edge.enable(edgeUrl, edgeToken ?? '');
  const overflow = createOverflow({ maxClients, edgeUrl: () => edge.publicUrl(), viewers: () => show.hub.viewers(), metrics });

  const status = () => ({
    transport: show.engine.status().transport,
    position: show.engine.status().position,
    tempo: show.engine.status().tempo,
    tempoOverride: show.engine.status().tempoOverride,
    epoch: show.stream.epoch(),
    seq: show.stream.seq(),
    clients: show.hub.counts(),
    score: { id: show.engine.score().id, title: show.engine.score().title, path: show.source().path, bars: show.engine.score().bars },
    osc: { targets: osc.list(), in: oscIn ? oscIn.port : null },
    edge: edge.status(),
    maxClients,
  });

  // ---- audience listener: audience routes only ----
  const audience = Fastify({ logger: false, bodyLimit: 1024, return503OnClosing: true, forceCloseConnections: true });
  // permessage-deflate without context takeover, offered to lean-stream sockets only (routes/ws.js):
  // the hub compresses each lean update once for all of them; ws never compresses its own small
  // sends (pongs) and a viewer's inflate window stays small.
  const perMessageDeflate = { serverNoContextTakeover: true, clientNoContextTakeover: true, clientMaxWindowBits: 10, threshold: 64 * 1024 };
  await audience.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate, clientTracking: false } });
  const limiter = createRateLimiter(rateLimit);
  const sweepLimiter = setInterval(() => limiter.sweep(), 10_000);
  sweepLimiter.unref();
  audience.addHook('onRequest', async (request, reply) => {
    if (!limiter.take(request.ip)) {
      metrics.badInput.inc({ source: BadInput.RATE });
      return reply.code(429).header('retry-after', '1').send({ error: 'RATE_LIMITED', message: 'too many requests from this address; slow down' });
    }
    if (request.method === 'GET' && (request.url === '/' || request.url.startsWith('/?')) && overflow.full()) {
      return overflow.reject(reply, 'page', request.url);
    }
  });
  audience.setErrorHandler((/** @type {any} */ error, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status < 500) metrics.badInput.inc({ source: BadInput.QUERY });
    reply.code(status).send({ error: error.code ?? 'ERROR', message: status === 500 ? 'internal error' : error.message });
  });
  const routeOptions = { show, metrics, now, overflow };
  await audience.register(wsRoutes, routeOptions);
  await audience.register(sseRoutes, routeOptions);
  await audience.register(pollRoutes, routeOptions);
  await audience.register(timeRoutes, routeOptions);
  // A fresh checkout without a build (npm install runs it; this covers a deleted dist/).
  if (!existsSync(AUDIENCE_DIST)) await buildAudienceApp({ quiet: true });
  const media = () => new Map((show.engine.score().assets ?? []).map((a) => [a.src, path.join(show.source().dir, a.src)]));
  await audience.register(staticRoutes, { dir: AUDIENCE_DIST, media });

  // ---- control listener: loopback only, token everywhere ----
  // Strict bodies: an unknown field is a mistake to report, not to drop silently.
  const control = Fastify({ logger: false, bodyLimit: 64 * 1024, forceCloseConnections: true, ajv: { customOptions: { removeAdditional: false, coerceTypes: false } } });
  control.addHook('onRequest', async (request, reply) => {
    // The console page and its files are public (they hold no data); every API call needs the token.
    if (request.method === 'GET' && isConsoleFile(request.url)) return;
    if (!bearerMatches(request.headers.authorization, token)) {
      metrics.badInput.inc({ source: BadInput.AUTH });
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: 'missing or wrong bearer token' });
    }
  });
  acceptJsonBodiesOfAnyType(control);
  control.setErrorHandler(controlErrorHandler(metrics));
  await control.register(controlRoutes, { show, metrics, status, log });
  const consoleContext = { show, metrics, status, log, osc, edge, audiencePort: () => audiencePort };
  for (const name of ['console-api.js', 'console-ui.js']) {
    const file = new URL(`./routes/${name}`, import.meta.url);
    if (existsSync(file)) await control.register((await import(file.href)).default, consoleContext);
  }

  let oscIn = null;
  let audiencePort = 0;
  try {
    await audience.listen({ host, port });
    await control.listen({ host: '127.0.0.1', port: controlPort });
    if (oscInPort !== null) oscIn = await startOscIn({ port: oscInPort, show, metrics, log });
  } catch (err) {
    show.close();
    osc.close();
    edge.close();
    await Promise.allSettled([audience.close(), control.close()]);
    throw new StartupError(err.code ?? 'LISTEN_FAILED', `Cannot listen: ${err.message}`);
  }

  const urlOf = (app, fallbackHost) => {
    const addr = /** @type {import('node:net').AddressInfo} */ (app.server.address());
    const h = fallbackHost ?? (addr.family === 'IPv6' ? `[${addr.address}]` : addr.address);
    return `http://${h}:${addr.port}`;
  };
  audiencePort = /** @type {import('node:net').AddressInfo} */ (audience.server.address()).port;
  const loopbackHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const resumed = saved && path.resolve(saved.scorePath) === path.resolve(scorePath) && show.engine.resumeFrom(saved.point);
  if (resumed) log.info(`resumed the show from ${stateFile}: ${show.engine.status().transport} at bar ${show.engine.status().position.bar}`);
  else if (autoplay) show.engine.play();
  if (stateFile) persistResumePoint({ file: stateFile, show, log });

  let closed = false;
  return {
    audienceUrl: urlOf(audience, loopbackHost),
    controlUrl: urlOf(control, '127.0.0.1'),
    audiencePort,
    token,
    show,
    metrics,
    log,
    osc,
    edge,
    status,
    /** Stop everything; viewers are told the server is going away. */
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweepLimiter);
      show.close();
      osc.close();
      edge.close();
      await oscIn?.close();
      await Promise.allSettled([audience.close(), control.close()]);
    },
  };
}
