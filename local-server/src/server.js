// Builds and starts a show server: the audience listener (audience routes only) and the
// control listener (127.0.0.1 only, bearer token). Used by `tutti serve`, the desktop console
// and the tests.

import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createMetrics } from './metrics.js';
import { createShow } from './show.js';
import { createOverflow } from './overflow.js';
import { createOscOut } from './osc.js';
import { startOscIn } from './osc-in.js';
import { createAllowList } from './cidr.js';
import { createEdgeMirror } from './edge-mirror.js';
import { persistResumePoint } from './resume-file.js';
import { openServerLogs } from './server-logs.js';
import { loadStartScore } from './start-score.js';
import { StartupError } from './startup-error.js';
import { createVoices } from './votes/voices.js';
import { buildAudienceListener } from './audience-listener.js';
import { buildControlListener } from './control-listener.js';
import { startRecorder } from './record/recorder.js';
import { createLatencyProbe, clock as probeClock } from './console/latency-probe.js';

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

export { StartupError } from './startup-error.js';
export { DEFAULT_SCORE } from './start-score.js';

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
 * @property {boolean} [aheadPieces] true: the full stream sends a chunk that starts later in ~512-byte pieces (README.md, "flywheel"; the fan-out bench's `ours-pieces`); default off
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
    aheadPieces,
  } = options;
  const token = options.token ?? randomBytes(18).toString('base64url');
  const { printed, log, fileLog, fastifyLogging } = openServerLogs({
    log: options.log,
    logFile: options.logFile,
    secrets: [token, edgeToken],
  });
  const now = options.now ?? createServerClock();
  const metrics = createMetrics();

  let start;
  try {
    start = await loadStartScore({ scorePath: options.scorePath, stateFile, log });
  } catch (err) {
    fileLog?.close();
    throw err;
  }
  const { saved, scorePath, loaded } = start;
  const show = createShow({
    loaded: { score: loaded.score, dir: loaded.dir, path: scorePath },
    now,
    metrics,
    lookaheadMs,
    hubOptions,
    aheadPieces,
  });
  const osc = createOscOut({ targets: oscTargets, show, metrics, log, allPlain: oscPlain, now });

  // The mirror copies the current score's media (the files behind /media/…) to the edge too.
  const mediaSource = () => ({ dir: show.source().dir, assets: show.engine.score().assets ?? [] });
  const edge = createEdgeMirror({ stream: show.stream, events: show.events, log, metrics, media: mediaSource });
  if (edgeUrl) await edge.enable(edgeUrl, edgeToken ?? '');
  // Audience voices (README.md): the venue counts its phones, the edge's totals are added.
  const voices = createVoices({ show, now, metrics, log, osc, edge, edgeWaitMs: options.voteEdgeWaitMs });
  const { votes, reactions } = voices;
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

  const { audience, probeKey, partKey, partPages, stopSweeping } = await buildAudienceListener({
    show,
    metrics,
    now,
    overflow,
    votes,
    reactions,
    log,
    printed,
    fastifyLogging,
    media: mediaSource,
    token,
    settings: {
      rateLimit: options.rateLimit,
      maxPerAddress: options.maxPerAddress ?? DEFAULT_MAX_PER_ADDRESS,
      trustProxy: options.trustProxy ?? false,
      firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? FIRST_REQUEST_TIMEOUT_MS,
      audienceDist: AUDIENCE_DIST,
      partDist: PART_DIST,
      buildAudienceApp: options.buildAudienceApp,
    },
  });
  const control = await buildControlListener({
    token,
    metrics,
    authFailures: options.authFailures,
    fastifyLogging,
    recordDir: options.recordDir ?? null,
    context: {
      show,
      metrics,
      status,
      log,
      osc,
      edge,
      votes,
      reactions,
      partPages,
      audienceHost: host,
      audiencePort: () => audiencePort,
      probeKey: probeKey.key,
      partKey: partKey.key,
      consoleHost: options.consoleHost ?? { mode: 'serve' },
    },
  });

  /** What stops the show's parts, in order: the viewers are told the server goes away before the listeners close. */
  const stopParts = async () => {
    stopSweeping();
    voices.close();
    show.close();
    osc.close();
    edge.close();
    await oscIn?.close();
    await Promise.allSettled([audience.close(), control.close()]);
  };

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
    await stopParts();
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
      // The record first, while the show it samples is still there.
      await recorder?.close();
      await stopParts();
      // A clean stop: the next start begins at the top (README.md "Crash resume").
      await persisted?.clear();
      fileLog?.logger.info('show server stopped');
      fileLog?.close();
    },
    /** Resolves when the saved show position is on disk (tests). */
    flushState: () => persisted?.flush() ?? Promise.resolve(),
  };
}
