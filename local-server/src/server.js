// Builds and starts a show server: the audience listener (audience routes only) and the
// control listener (127.0.0.1 only, bearer token). Used by `tutti serve`, the desktop console
// and the tests.

import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import websocket from '@fastify/websocket';
import { MAX_CLIENT_FRAME_BYTES } from '#core/protocol/envelope.js';
import { createMetrics, BadInput } from './metrics.js';
import { createShow } from './show.js';
import { loadScoreFile } from './score-file.js';
import { createOverflow } from './overflow.js';
import { createControlGuard } from './control-guard.js';
import { createLog } from './log.js';
import { createRateLimiter } from './rate-limit.js';
import { guardConnections } from './connection-guard.js';
import { createOscOut } from './osc.js';
import { startOscIn } from './osc-in.js';
import { createAllowList } from './cidr.js';
import { createEdgeMirror } from './edge-mirror.js';
import { readResumeFile, persistResumePoint } from './resume-file.js';
import { createProbeKey } from './probe-key.js';
import { createPartKey } from './part-key.js';
import { createPartPages } from './part-pages.js';
import { createFileLogger, teeToFile } from './log-file.js';
import wsRoutes from './routes/ws.js';
import sseRoutes from './routes/sse.js';
import pollRoutes from './routes/poll.js';
import audienceMethodRoutes from './routes/audience-methods.js';
import timeRoutes from './routes/time.js';
import controlRoutes, { controlErrorHandler, acceptJsonBodiesOfAnyType } from './routes/control.js';
import staticRoutes from './routes/static.js';
import consoleApiRoutes from './routes/console-api.js';
import consoleImportRoutes from './routes/console-import.js';
import consoleUiRoutes from './routes/console-ui.js';
import consolePartRoutes from './routes/console-parts.js';
import voteRoutes from './routes/vote.js';
import { createVoteDesk } from './votes/vote-desk.js';
import { createReactionMeter } from './votes/reaction-meter.js';
import partRoutes from './routes/part.js';
import partStreamRoutes from './routes/part-stream.js';
import recordRoutes from './routes/records.js';
import { startRecorder } from './record/recorder.js';
import { createLatencyProbe, clock as probeClock } from './console/latency-probe.js';

export const DEFAULT_SCORE = fileURLToPath(new URL('../../scores/demo.score.json', import.meta.url));
export const AUDIENCE_DIST = fileURLToPath(new URL('../../dist/audience', import.meta.url));
/** The musicians' part page (README.md, "Part pages"), built next to the audience app but never in its folder: the edge serves that folder. */
export const PART_DIST = fileURLToPath(new URL('../../dist/part', import.meta.url));

/**
 * A wall clock that cannot jump: read once, then advanced by the monotonic clock, so an NTP
 * step during a show cannot move beats. Shared by `t`, `position.at`, `/time` and pongs.
 */
export function createServerClock() {
  const base = Date.now() - performance.now();
  return () => base + performance.now();
}

/** Sockets per address: a NAT'd family's phones and tablets, each with a page, a stream and a poll. */
export const DEFAULT_MAX_PER_ADDRESS = 16;
/** A phone sends its request within milliseconds of connecting; an idle socket is an attack or a bug. */
export const FIRST_REQUEST_TIMEOUT_MS = 5_000;
/** Keep-alive sockets between requests (a polling phone asks every ≤ 2 s). Fastify's default is 72 s. */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

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
 * @property {Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>} [oscTargets] musicians' OSC targets (osc-target.js: mode default plain, offset 0)
 * @property {boolean} [oscPlain] every target plain even if it asks for `ahead` (--osc-plain, kept for old command lines)
 * @property {number | null} [oscInPort]
 * @property {string} [oscInHost] address OSC-in binds (default 127.0.0.1: this machine only)
 * @property {Array<{ address: string, prefix: number, family: 'ipv4' | 'ipv6' }>} [oscAllow] senders OSC-in hears (--osc-allow; empty: all)
 * @property {string | null} [edgeUrl]
 * @property {string | null} [edgeToken]
 * @property {number | null} [maxClients]
 * @property {string | null} [recordDir] write the performance record of this show into this folder (README.md, "The performance record"); null = none
 * @property {string | null} [stateFile] persist the show position here; resume from it after an unclean stop (a clean close deletes it)
 * @property {number} [lookaheadMs]
 * @property {() => number} [now] the server clock (default createServerClock(); tests: a laptop whose clock is off)
 * @property {number} [voteEdgeWaitMs] how long after a prompt's close its result waits for the edge's final count (default EDGE_WAIT_MS in votes/vote-desk.js)
 * @property {object} [hubOptions] fan-out tuning (tests)
 * @property {{ ratePerSecond?: number, burst?: number }} [rateLimit] per-address audience request limit
 * @property {number} [maxPerAddress] sockets one address may hold on the audience listener (0 = no cap; default 16)
 * @property {boolean} [trustProxy] take the client address from X-Forwarded-For when the request comes from 127.0.0.1/::1
 * @property {number} [firstRequestTimeoutMs] a new audience socket must send a whole request within this (default 5 s)
 * @property {{ ratePerSecond: number, burst: number }} [authFailures] failed control-token checks allowed (default AUTH_FAILURE_LIMIT in control-guard.js)
 * @property {import('./log.js').Log} [log]
 * @property {string | null} [logFile] also write the log, and Fastify's errors, as JSON lines to this rotated file (README.md "Logs")
 * @property {() => Promise<void>} [buildAudienceApp] builds a missing dist/audience (source checkouts only: see app/README.md)
 * @property {import('./routes/console-api.js').ConsoleHost} [consoleHost] who hosts the server (`npm start`, the desktop app): what the console shows of settings and recent scores; default `{ mode: 'serve' }`
 */

/**
 * Start a show server. Rejects with a StartupError for problems the user must fix.
 * @param {ShowServerOptions} [options]
 */
export async function startShowServer(options = {}) {
  const stateFile = options.stateFile ?? null;
  const {
    host = '0.0.0.0',
    port = 8080,
    controlPort = 8081,
    autoplay = false,
    oscTargets = [],
    oscPlain = false,
    oscInPort = null,
    oscInHost = '127.0.0.1',
    oscAllow = [],
    edgeUrl = null,
    edgeToken = null,
    maxClients = null,
    lookaheadMs,
    hubOptions,
    rateLimit,
    maxPerAddress = DEFAULT_MAX_PER_ADDRESS,
    trustProxy = false,
    firstRequestTimeoutMs = FIRST_REQUEST_TIMEOUT_MS,
  } = options;
  const token = options.token ?? randomBytes(18).toString('base64url');
  const printed = options.log ?? createLog({ redact: [token, edgeToken] });
  // The log file gets everything the log says, plus Fastify's own errors with their stacks.
  const fileLog = options.logFile ? createFileLogger({ file: options.logFile, secrets: [token, edgeToken] }) : null;
  const log = fileLog ? teeToFile(printed, fileLog.logger) : printed;
  /** @param {string} listener */
  const fastifyLogging = (listener) =>
    fileLog
      ? { loggerInstance: fileLog.logger.child({ listener }), logController: new LogController({ disableRequestLogging: true }) }
      : { logger: false };
  const now = options.now ?? createServerClock();
  const metrics = createMetrics();

  // Crash resume (README.md): the file exists only when the last run did not stop cleanly.
  /** @type {import('./resume-file.js').ResumeRead} */
  const read = stateFile ? await readResumeFile(stateFile) : { status: 'absent' };
  if (read.status === 'corrupt')
    log.warn(
      `the saved show position in ${stateFile} is unusable (${read.reason})${read.keptAs ? `; kept as ${read.keptAs}` : ''}; starting from the top`,
    );
  const saved = read.status === 'ok' ? read.record : null;
  let scorePath = options.scorePath ?? saved?.scorePath ?? DEFAULT_SCORE;
  let loaded = await loadScoreFile(scorePath);
  if (!loaded.ok && !options.scorePath && saved) {
    // The score of the interrupted show is gone or broken now: a crash must not stop the next start.
    log.warn(`the interrupted show's score ${scorePath} does not load any more; opening ${DEFAULT_SCORE} instead`);
    scorePath = DEFAULT_SCORE;
    loaded = await loadScoreFile(scorePath);
  }
  if (!loaded.ok) {
    fileLog?.close();
    throw new StartupError('INVALID_SCORE', `The score ${scorePath} has ${loaded.problems.length} problem(s).`, loaded.problems);
  }
  const show = createShow({ loaded: { score: loaded.score, dir: loaded.dir, path: scorePath }, now, metrics, lookaheadMs, hubOptions });
  const osc = createOscOut({ targets: oscTargets, show, metrics, log, allPlain: oscPlain, now });

  // The mirror copies the current score's media (the files behind /media/…) to the edge too.
  const mediaSource = () => ({ dir: show.source().dir, assets: show.engine.score().assets ?? [] });
  const edge = createEdgeMirror({ stream: show.stream, events: show.events, log, metrics, media: mediaSource });
  if (edgeUrl) await edge.enable(edgeUrl, edgeToken ?? '');
  // Audience voices (README.md): the venue counts its phones, the edge's totals are added.
  const votes = createVoteDesk({
    show,
    now,
    metrics,
    log,
    sendOsc: (address, args) => osc.message(address, args, 'vote'),
    edgeOn: () => edge.status().enabled === true,
    edgeWaitMs: options.voteEdgeWaitMs,
  });
  edge.events.on('votes', (report) => votes.edgeTotals(report));
  const reactions = createReactionMeter({
    show,
    now,
    metrics,
    viewers: () => show.hub.viewers() + (edge.status().remoteViewers ?? 0),
    sendOsc: (address, args) => osc.message(address, args, 'reaction'),
  });
  edge.events.on('taps', (n) => reactions.tap(n, 'edge'));
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
    osc: { targets: osc.list(), in: oscIn ? oscIn.port : null, inHost: oscIn ? oscIn.host : null },
    edge: edge.status(),
    maxClients,
    vote: votes.status(),
    reaction: reactions.status(),
  });

  // ---- audience listener: audience routes only ----
  // --trust-proxy believes X-Forwarded-For only from this machine (a reverse proxy next to the
  // server); a phone cannot pick its own address by sending the header.
  const audience = Fastify({
    ...fastifyLogging('audience'),
    bodyLimit: 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: trustProxy ? ['127.0.0.1', '::1'] : false,
  });
  const guard = guardConnections({
    server: audience.server,
    maxPerAddress: maxPerAddress > 0 ? maxPerAddress : Infinity,
    firstRequestTimeoutMs,
    metrics,
    log,
  });
  // permessage-deflate without context takeover, offered to lean-stream sockets only (routes/ws.js):
  // the hub compresses each lean update once for all of them; ws never compresses its own small
  // sends (pongs). No clientMaxWindowBits: ws would then refuse (400) every offer that lacks
  // client_max_window_bits, which is Firefox's bare `permessage-deflate` (web/audience/README.md,
  // "Browser differences"); with client_no_context_takeover ws frees a socket's inflate window after
  // each message anyway, so no window is held per phone.
  const perMessageDeflate = { serverNoContextTakeover: true, clientNoContextTakeover: true, threshold: 64 * 1024 };
  await audience.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate, clientTracking: false } });
  const limiter = createRateLimiter(rateLimit);
  const sweepLimiter = setInterval(() => limiter.sweep(), 10_000);
  sweepLimiter.unref();
  audience.addHook('onRequest', async (request, reply) => {
    if (trustProxy && !guard.admitProxied(request, reply)) {
      return reply
        .code(429)
        .header('retry-after', '10')
        .send({ error: 'TOO_MANY_CONNECTIONS', message: 'too many open connections from this address' });
    }
    if (!limiter.take(request.ip)) {
      metrics.badInput.inc({ source: BadInput.RATE });
      return reply
        .code(429)
        .header('retry-after', '1')
        .send({ error: 'RATE_LIMITED', message: 'too many requests from this address; slow down' });
    }
    if (request.method === 'GET' && (request.url === '/' || request.url.startsWith('/?')) && overflow.full()) {
      return overflow.reject(reply, 'page', request.url);
    }
  });
  audience.setErrorHandler((/** @type {any} */ error, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status < 500) metrics.badInput.inc({ source: BadInput.QUERY });
    else {
      // A phone got a 500: the stack goes to the log file, one line to the terminal and console.
      request.log.error({ err: error, method: request.method, url: request.url }, 'audience request failed');
      printed.error(`audience ${request.method} ${request.url.split('?')[0]} failed: ${error.message}`);
    }
    reply.code(status).send({ error: error.code ?? 'ERROR', message: status === 500 ? 'internal error' : error.message });
  });
  const probeKey = createProbeKey();
  const routeOptions = { show, metrics, now, overflow, isProbe: probeKey.isProbe, votes, reactions };
  await audience.register(wsRoutes, routeOptions);
  await audience.register(sseRoutes, routeOptions);
  await audience.register(pollRoutes, routeOptions);
  await audience.register(timeRoutes, routeOptions);
  await audience.register(audienceMethodRoutes, routeOptions);
  await audience.register(voteRoutes, routeOptions);
  // dist/audience is prebuilt (npm install builds it; the desktop app ships it). The server never
  // imports the builder (esbuild is a dev tool): a source checkout injects it for a deleted dist/.
  if ((!existsSync(AUDIENCE_DIST) || !existsSync(PART_DIST)) && options.buildAudienceApp) await options.buildAudienceApp();
  const warnedLinks = new Set();
  const onOutside = (src) => {
    metrics.badInput.inc({ source: BadInput.MEDIA_LINK });
    if (warnedLinks.has(src) || warnedLinks.size > 256) return;
    warnedLinks.add(src);
    log.warn(`media ${src} links outside the score's folder; not served (SECURITY.md, score files)`);
  };
  await audience.register(staticRoutes, { dir: AUDIENCE_DIST, media: mediaSource, onOutside });
  // Musicians' part pages: behind a key only the console shows (routes/part.js, SECURITY.md).
  const partKey = createPartKey(token);
  const partPages = createPartPages();
  await audience.register(partRoutes, { dir: PART_DIST, show, metrics, partKey, partPages, log });
  await audience.register(partStreamRoutes, { prefix: '/part/:key', partKey, routeOptions });

  // ---- control listener: loopback only, token everywhere ----
  // Strict bodies: an unknown field is a mistake to report, not to drop silently.
  const control = Fastify({
    ...fastifyLogging('control'),
    bodyLimit: 64 * 1024,
    forceCloseConnections: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  // Host, Origin, token and the failed-token throttle (control-guard.js, SECURITY.md).
  control.addHook('onRequest', createControlGuard({ token, metrics, authFailures: options.authFailures }));
  acceptJsonBodiesOfAnyType(control);
  control.setErrorHandler(controlErrorHandler(metrics));
  await control.register(controlRoutes, { show, metrics, status, log });
  const consoleHost = options.consoleHost ?? { mode: 'serve' };
  const consoleContext = {
    show,
    metrics,
    status,
    log,
    osc,
    edge,
    audiencePort: () => audiencePort,
    probeKey: probeKey.key,
    partKey: partKey.key,
    partPages,
    audienceHost: host,
    consoleHost,
    votes,
    reactions,
  };
  await control.register(consoleApiRoutes, consoleContext);
  await control.register(consoleImportRoutes, consoleContext);
  await control.register(consoleUiRoutes, {});
  await control.register(consolePartRoutes, consoleContext);
  await control.register(recordRoutes, { recordDir: options.recordDir ?? null });

  let oscIn = null;
  let audiencePort = 0;
  try {
    await audience.listen({ host, port });
    await control.listen({ host: '127.0.0.1', port: controlPort });
    if (oscInPort !== null) {
      const allow = oscAllow.length ? createAllowList(oscAllow) : null;
      oscIn = await startOscIn({ port: oscInPort, host: oscInHost, allow, show, metrics, log });
    }
  } catch (err) {
    votes.close();
    reactions.close();
    show.close();
    osc.close();
    edge.close();
    await Promise.allSettled([audience.close(), control.close()]);
    fileLog?.logger.error(`could not listen: ${err.message}`);
    fileLog?.close();
    throw new StartupError(err.code ?? 'LISTEN_FAILED', `Cannot listen: ${err.message}`);
  }

  const urlOf = (app, fallbackHost) => {
    const addr = /** @type {import('node:net').AddressInfo} */ (app.server.address());
    const h = fallbackHost ?? (addr.family === 'IPv6' ? `[${addr.address}]` : addr.address);
    return `http://${h}:${addr.port}`;
  };
  audiencePort = /** @type {import('node:net').AddressInfo} */ (audience.server.address()).port;
  const loopbackHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const resumed = saved !== null && resumeSaved(saved);
  if (resumed)
    log.info(
      `resumed the show after an unclean stop (${stateFile}): ${show.engine.status().transport} at bar ${show.engine.status().position.bar}`,
    );
  else if (autoplay) show.engine.play();
  const recorder = options.recordDir ? await openRecord(options.recordDir, resumed ? saved?.record : null) : null;
  const persisted = stateFile ? persistResumePoint({ file: stateFile, show, log, record: recorder?.id ?? null }) : null;

  /** The performance record (README.md): after a crash, the interrupted show's record goes on. */
  async function openRecord(root, continueId) {
    try {
      const probe = createLatencyProbe({ port: () => audiencePort, key: probeKey.key });
      return await startRecorder({ root, continueId, show, now, metrics, edge, votes, partPages, probe, probeClock, log });
    } catch (err) {
      log.warn(`cannot record this show in ${root}: ${err.message}; the show goes on unrecorded`);
      return null;
    }
  }

  /** Apply a saved point when it belongs to this score and every value is in range. */
  function resumeSaved(record) {
    if (path.resolve(record.scorePath) !== path.resolve(scorePath)) {
      log.info(`not resuming: the interrupted show was ${record.scorePath}, this one is ${path.resolve(scorePath)}`);
      return false;
    }
    const problem = show.engine.resumeProblem(record.point);
    if (problem !== null) {
      log.warn(`not resuming from ${stateFile}: ${problem}; starting from the top`);
      return false;
    }
    return show.engine.resumeFrom(record.point);
  }

  let closed = false;
  return {
    audienceUrl: urlOf(audience, loopbackHost),
    controlUrl: urlOf(control, '127.0.0.1'),
    audiencePort,
    token,
    /** The musicians' part pages are at `${audienceUrl}/part/${partKey}/` (README.md, "Part pages"). */
    partKey: partKey.key,
    show,
    metrics,
    log,
    osc,
    edge,
    votes,
    reactions,
    status,
    /** The performance record being written, or null (README.md, "The performance record"). */
    recorder,
    /** Stop everything; viewers are told the server is going away. */
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweepLimiter);
      // The record first, while the show it samples is still there.
      await recorder?.close();
      votes.close();
      reactions.close();
      show.close();
      osc.close();
      edge.close();
      await oscIn?.close();
      await Promise.allSettled([audience.close(), control.close()]);
      // A clean stop: the next start begins at the top (README.md "Crash resume").
      await persisted?.clear();
      fileLog?.logger.info('show server stopped');
      fileLog?.close();
    },
    /** Resolves when the saved show position is on disk (tests). */
    flushState: () => persisted?.flush() ?? Promise.resolve(),
  };
}
