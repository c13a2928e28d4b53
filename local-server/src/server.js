// Builds and starts a show server: the audience listener (audience routes only) and the
// control listener (127.0.0.1 only, bearer token). Used by `tutti serve`, the desktop console
// and the tests.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { createMetrics } from './logs/metrics.js';
import { createShow } from './show/show.js';
import { createOverflow } from './guards/overflow.js';
import { createOscOut } from './osc/osc.js';
import { startOscIn } from './osc/osc-in.js';
import { createAllowList } from './osc/cidr.js';
import { createEdgeMirror } from './edge/edge-mirror.js';
import { persistResumePoint } from './show/resume-file.js';
import { openServerLogs } from './logs/server-logs.js';
import { loadStartScore, resumeSaved } from './show/start-score.js';
import { StartupError } from './show/startup-error.js';
import { createVoices } from './votes/voices.js';
import { buildShowListeners } from './show/show-listeners.js';
import { openRecord } from './record/open-record.js';
import { createClosers } from './show/closers.js';
import { createServerStatus } from './show/server-status.js';
import { createNotationService } from './notation/notation-service.js';
import { AUDIENCE_NOTATION_LAYOUT, partsShownToAudience } from '#core/score/audience-score.js';
import { defaultStateDir, NOTATION_DIR_NAME } from './show/state-dir.js';

/**
 * A wall clock that cannot jump: read once, then advanced by the monotonic clock, so an NTP
 * step during a show cannot move beats. Shared by `t`, `position.at`, `/time` and pongs.
 */
export function createServerClock() {
  const base = Date.now() - performance.now();
  return () => base + performance.now();
}

export { AUDIENCE_DIST, PART_DIST, DEFAULT_MAX_PER_ADDRESS, FIRST_REQUEST_TIMEOUT_MS } from './show/show-listeners.js';

export { StartupError } from './show/startup-error.js';
export { DEFAULT_SCORE } from './show/start-score.js';

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
 * @property {string | null} [recordDir] write the performance record of this show into this folder (docs/how-to/record-and-replay.md#the-performance-record); null = none
 * @property {string} [notationCacheDir] where engraved notation is kept (docs/reference/notation.md#the-cache); default notation/ in the state folder
 * @property {string | null} [partKeyFile] keep the part-page key here across restarts (part-key.js); null = a new key every start
 * @property {string | null} [stateFile] persist the show position here; resume from it after an unclean stop (a clean close deletes it)
 * @property {number} [lookaheadMs]
 * @property {number} [lookAheadDelayMs] how long an operator's action's look-ahead waits on the lean stream (default LOOK_AHEAD_DELAY_MS in show-streams.js)
 * @property {() => number} [now] the server clock (default createServerClock(); tests: a laptop whose clock is off)
 * @property {number} [voteEdgeWaitMs] how long after a prompt's close its result waits for the edge's final count (default EDGE_WAIT_MS in votes/vote-desk.js)
 * @property {object} [hubOptions] fan-out tuning (tests)
 * @property {boolean} [aheadPieces] true: the full stream sends a chunk that starts later in ~512-byte pieces (docs/explanation/clock-sync.md#the-flywheel; the fan-out bench's `ours-pieces`); default off
 * @property {{ ratePerSecond?: number, burst?: number }} [rateLimit] per-address audience request limit
 * @property {number} [maxPerAddress] sockets one address may hold on the audience listener (0 = no cap; default 16)
 * @property {boolean} [trustProxy] take the client address from X-Forwarded-For when the request comes from 127.0.0.1/::1
 * @property {number} [firstRequestTimeoutMs] a new audience socket must send a whole request within this (default 5 s)
 * @property {{ ratePerSecond: number, burst: number }} [authFailures] failed control-token checks allowed (default AUTH_FAILURE_LIMIT in control-guard.js)
 * @property {import('./logs/log.js').Log} [log]
 * @property {string | null} [logFile] also write the log, and Fastify's errors, as JSON lines to this rotated file (docs/how-to/venue-server-unattended.md#logs)
 * @property {() => Promise<void>} [buildAudienceApp] builds a missing dist/audience (source checkouts only: see docs/how-to/desktop-app.md)
 * @property {import('./console/console-api.js').ConsoleHost} [consoleHost] who hosts the server (`npm start`, the desktop app): what the console shows of settings and recent scores; default `{ mode: 'serve' }`
 */

/**
 * Start a show server. Rejects with a StartupError for problems the user must fix. Only wiring:
 * each part is made by its own module, and its closer goes on one stack (closers.js) that a
 * clean close, or a start that fails half-way, runs last-added first.
 * @param {ShowServerOptions} [options]
 */
export async function startShowServer(options = {}) {
  const stateFile = options.stateFile ?? null;
  const { host = '0.0.0.0', port = 8080, controlPort = 8081, autoplay = false, maxClients = null } = options;
  const { oscTargets = [], oscPlain = false, edgeToken = null, lookaheadMs, lookAheadDelayMs, hubOptions, aheadPieces } = options;
  const token = options.token ?? randomBytes(18).toString('base64url');
  const { printed, log, fileLog, fastifyLogging } = openServerLogs({
    log: options.log,
    logFile: options.logFile,
    secrets: [token, edgeToken],
  });
  const now = options.now ?? createServerClock();
  const metrics = createMetrics();
  const closers = createClosers(log);
  if (fileLog) closers.add('log file', () => fileLog.close());
  let oscIn = null;
  let audiencePort = 0;
  try {
    const { saved, scorePath, loaded } = await loadStartScore({ scorePath: options.scorePath, stateFile, log });
    if (fileLog) closers.add('stop line', () => fileLog.logger.info('show server stopped'));
    // The listeners close after everything else: the show tells its viewers the server goes away first.
    const listeners = [];
    closers.add('listeners', () => Promise.allSettled(listeners.map((listener) => listener.close())));
    const show = createShow({
      loaded: { score: loaded.score, dir: loaded.dir, path: scorePath },
      now,
      metrics,
      lookaheadMs,
      lookAheadDelayMs,
      hubOptions,
      aheadPieces,
    });
    closers.add('show', () => show.close());
    const osc = createOscOut({ targets: oscTargets, show, metrics, log, allPlain: oscPlain, now });
    closers.add('OSC out', () => osc.close());

    const { notation, edge, mediaSource } = await startNotationAndEdge({ show, osc, log, metrics, closers, options });
    // Audience voices (docs/README.md): the venue counts its phones, the edge's totals are added.
    const voices = createVoices({ show, now, metrics, log, osc, edge, edgeWaitMs: options.voteEdgeWaitMs });
    closers.add('voices', () => voices.close());
    const { votes, reactions } = voices;
    const overflow = createOverflow({ maxClients, edgeUrl: () => edge.publicUrl(), viewers: () => show.hub.viewers(), metrics });

    const status = createServerStatus({ show, osc, oscIn: () => oscIn, edge, votes, reactions, maxClients, notation });

    const parts = { show, metrics, now, overflow, votes, reactions, log, osc, edge, status, media: mediaSource, notation };
    const { audience, control, probeKey, partKey, partPages, stopSweeping } = await buildShowListeners({
      parts,
      logs: { printed, fastifyLogging },
      token,
      options,
      audiencePort: () => audiencePort,
    });
    listeners.push(audience, control);
    closers.add('address sweeps', stopSweeping);

    await listenOrExplain(() => audience.listen({ host, port }), fileLog);
    await listenOrExplain(() => control.listen({ host: '127.0.0.1', port: controlPort }), fileLog);
    oscIn = options.oscInPort == null ? null : await listenOrExplain(() => startOscInFor(options, { show, metrics, log }), fileLog);
    if (oscIn) closers.add('OSC in', () => oscIn.close());
    audiencePort = /** @type {import('node:net').AddressInfo} */ (audience.server.address()).port;

    const resumed = saved !== null && resumeSaved({ saved, scorePath, stateFile, show, log });
    if (!resumed && autoplay) show.engine.play();
    if (resumed && saved?.rehearsal === true) {
      show.setRehearsal(true);
      log.info('resumed in rehearsal mode: the audience still sees "the show starts soon"');
    }
    const recorder = options.recordDir
      ? await openRecord({
          ...parts,
          partPages,
          root: options.recordDir,
          continueId: resumed ? saved?.record : null,
          probeKey: probeKey.key,
          audiencePort: () => audiencePort,
        })
      : null;
    // The record first, while the show it samples is still there.
    if (recorder) closers.add('performance record', () => recorder.close());
    const persisted = stateFile ? persistResumePoint({ file: stateFile, show, log, record: recorder?.id ?? null }) : null;
    // A clean stop: the next start begins at the top (docs/how-to/venue-server-unattended.md#crash-resume). Cleared first: from
    // then on the show's last moves are not saved.
    if (persisted) closers.add('resume point', () => persisted.clear());

    return {
      audienceUrl: listenerUrl(audience, loopbackHostOf(host)),
      controlUrl: listenerUrl(control, '127.0.0.1'),
      audiencePort,
      token,
      /** The musicians' part pages are at `${audienceUrl}/part/${partKey}/` (docs/how-to/part-pages.md#part-pages); the key now (the console can rotate it). */
      get partKey() {
        return partKey.key;
      },
      show,
      metrics,
      log,
      osc,
      edge,
      votes,
      reactions,
      status,
      /** The engraved notation (docs/reference/notation.md). */
      notation,
      /** The performance record being written, or null (docs/how-to/record-and-replay.md#the-performance-record). */
      recorder,
      /** Stop everything; viewers are told the server is going away. */
      close: () => closers.close(),
      /** Resolves when the saved show position is on disk (tests). */
      flushState: () => persisted?.flush() ?? Promise.resolve(),
    };
  } catch (err) {
    await closers.close();
    throw err;
  }
}

/**
 * Listen, or fail the start with a StartupError the user can act on (a port in use, no such
 * address), written to the log file too.
 * @template T
 * @param {() => Promise<T>} listen
 * @param {{ logger: { error: (msg: string) => void } } | null} fileLog
 * @returns {Promise<T>}
 */
async function listenOrExplain(listen, fileLog) {
  try {
    return await listen();
  } catch (err) {
    fileLog?.logger.error(`could not listen: ${err.message}`);
    throw new StartupError(err.code ?? 'LISTEN_FAILED', `Cannot listen: ${err.message}`);
  }
}

/**
 * OSC-in (remote control, docs/reference/osc.md#address-space) on --osc-in, hearing the senders of --osc-allow.
 * @param {ShowServerOptions} options
 * @param {{ show: import('./show/show.js').Show, metrics: import('./logs/metrics.js').Metrics, log: import('./logs/log.js').Log }} parts
 */
function startOscInFor({ oscInPort, oscInHost = '127.0.0.1', oscAllow = [] }, { show, metrics, log }) {
  const allow = oscAllow.length ? createAllowList(oscAllow) : null;
  return startOscIn({ port: /** @type {number} */ (oscInPort), host: oscInHost, allow, show, metrics, log });
}

/**
 * The URL a listener answers on.
 * @param {import('fastify').FastifyInstance} app
 * @param {string} [fallbackHost] the host to name instead of the bound address
 */
function listenerUrl(app, fallbackHost) {
  const addr = /** @type {import('node:net').AddressInfo} */ (app.server.address());
  const h = fallbackHost ?? (addr.family === 'IPv6' ? `[${addr.address}]` : addr.address);
  return `http://${h}:${addr.port}`;
}

/** The host this machine reaches the audience listener on (a wildcard bind is reached on loopback). */
const loopbackHostOf = (host) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/**
 * The score's notation, engraved in the background off the show's thread (docs/reference/notation.md),
 * and the edge mirror, which copies the current score's media (the files behind /media/…) to the
 * edge with the engraved pages a view shows the audience, as each is engraved
 * (docs/reference/notation.md#the-score-on-the-audiences-phones).
 * @param {{ show: any, osc: ReturnType<typeof createOscOut>, log: any, metrics: any, closers: ReturnType<typeof createClosers>, options: ShowServerOptions }} parts
 */
async function startNotationAndEdge({ show, osc, log, metrics, closers, options }) {
  const notation = createNotationService({ cacheDir: options.notationCacheDir ?? path.join(defaultStateDir(), NOTATION_DIR_NAME), log });
  // Beats stay on time while the score engraves (docs/reference/osc.md#beats-while-the-score-engraves).
  notation.onEngraverProcess((pid) => osc.holdStillAroundSends(pid === null ? [] : [pid]));
  closers.add('notation', () => notation.close());
  notation.load(show.source());
  show.events.on('score', (next) => notation.load(next));
  const shownParts = () => partsShownToAudience(show.engine.score());
  const mediaSource = () => ({
    dir: show.source().dir,
    assets: show.engine.score().assets ?? [],
    generated: () => notation.mediaFiles(shownParts(), AUDIENCE_NOTATION_LAYOUT),
  });
  const edge = createEdgeMirror({ stream: show.stream, events: show.events, log, metrics, media: mediaSource });
  closers.add('edge mirror', () => edge.close());
  notation.onEngraved((part, layout) => {
    if (layout === AUDIENCE_NOTATION_LAYOUT && shownParts().includes(part)) edge.syncMedia();
  });
  if (options.edgeUrl) await edge.enable(options.edgeUrl, options.edgeToken ?? '');
  return { notation, edge, mediaSource };
}
