// Starts the show server for the console (the desktop app's utility process, or `npm start`
// in browser mode) from saved settings and this run's overrides: preferred ports, falling back
// to free ones when they are taken; the last score, falling back to the demo when it no longer
// loads. Every fallback is reported as a notice the caller prints or shows.

import net from 'node:net';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShowServer as realStart, StartupError } from '../../local-server/index.js';

export const REPO_SCORES_DIR = fileURLToPath(new URL('../../scores/', import.meta.url));

/**
 * Is `port` free on `host`? (Bind and release; a port taken in between is handled by a retry.)
 * @param {number} port
 * @param {string} host
 * @returns {Promise<boolean>}
 */
export function portIsFree(port, host) {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * @typedef {object} LaunchOptions
 * @property {import('./settings-store.js').Settings} settings
 * @property {Record<string, any>} [overrides] this run's choices (flags, pinned ports after a restart, token)
 * @property {string} [scoresDir] where the bundled scores are (the demo is the fallback)
 * @property {'browser' | 'electron'} mode
 * @property {string} [settingsPath]
 * @property {(change: Record<string, unknown>) => void} onChange console changes to persist
 * @property {() => string[]} recentScores
 * @property {import('../../local-server/index.js').Log} [log]
 * @property {string | null} [logFile] the JSON log file (docs/how-to/venue-server-unattended.md#logs); null = none
 * @property {string | null} [partKeyFile] where the part-page key is kept across restarts (local-server/src/parts/part-key.js); null = a new one every start
 * @property {string | null} [stateFile] crash resume: where the show position is kept (docs/how-to/venue-server-unattended.md#crash-resume); null = off
 * @property {string | null} [recordDir] where the performance record is written (docs/how-to/record-and-replay.md#the-performance-record); null = none
 * @property {typeof realStart} [startShowServer]
 * @property {() => Promise<void>} [buildAudienceApp] builds a missing dist/audience (source checkout only; never in the desktop app)
 */

/**
 * @param {LaunchOptions} options
 * @returns {Promise<{ server: Awaited<ReturnType<typeof realStart>>, notices: string[], scorePath: string }>}
 */
export async function launchShow(options) {
  const { settings, overrides = {}, scoresDir = REPO_SCORES_DIR, mode, settingsPath, onChange, recentScores, log } = options;
  const start = options.startShowServer ?? realStart;
  const notices = [];
  const host = overrides.host ?? '0.0.0.0';
  const demo = join(scoresDir, 'demo.score.json');

  // The score: asked for > the last one loaded > the demo.
  const asked = overrides.scorePath ? resolve(overrides.scorePath) : null;
  const remembered = settings.recentScores.find(() => true) ?? null;
  let scorePath = asked ?? (remembered && existsSync(remembered) ? remembered : demo);
  if (!asked && remembered && scorePath !== remembered)
    notices.push(`The last score (${remembered}) is gone; opening the demo score instead.`);

  // Ports: preferred ones when free, otherwise any free port (and say so).
  const want = { port: overrides.port ?? settings.audiencePort, controlPort: overrides.controlPort ?? settings.controlPort };
  const ports = { ...want };
  if (!(await portIsFree(want.port, host))) {
    ports.port = 0;
    notices.push(`Port ${want.port} is in use: the audience listener takes a free port instead.`);
  }
  if (!(await portIsFree(want.controlPort, '127.0.0.1'))) {
    ports.controlPort = 0;
    notices.push(`Port ${want.controlPort} is in use: the console listens on a free port instead.`);
  }

  const serverOptions = () => ({
    scorePath,
    host,
    port: ports.port,
    controlPort: ports.controlPort,
    token: overrides.token,
    autoplay: overrides.autoplay ?? false,
    oscPlain: overrides.oscPlain ?? false,
    rateLimit: overrides.rateLimit,
    oscTargets: overrides.oscTargets?.length ? overrides.oscTargets : settings.oscTargets,
    oscInPort: overrides.oscInPort ?? settings.oscInPort,
    // Flag-only choices (no setting): where OSC-in listens and who it hears, per-address limits.
    oscInHost: overrides.oscInHost,
    oscAllow: overrides.oscAllow,
    maxPerAddress: overrides.maxPerAddress,
    trustProxy: overrides.trustProxy,
    edgeUrl: overrides.edgeUrl ?? null,
    edgeToken: overrides.edgeToken ?? null,
    maxClients: overrides.maxClients ?? settings.maxClients,
    // Already resolved by the caller from --state-file/--no-resume and its own folder.
    stateFile: options.stateFile ?? null,
    logFile: options.logFile ?? null,
    recordDir: options.recordDir ?? null,
    partKeyFile: options.partKeyFile ?? null,
    log,
    buildAudienceApp: options.buildAudienceApp,
    consoleHost: { mode, recentScores, onChange, audienceHost: host, settingsPath, scoresDir },
  });

  let server;
  for (let attempt = 0; attempt < 3 && !server; attempt += 1) {
    try {
      server = await start(serverOptions());
    } catch (err) {
      if (err instanceof StartupError && err.code === 'INVALID_SCORE' && !asked && scorePath !== demo) {
        notices.push(
          `The last score (${scorePath}) has ${err.problems.length} problem(s) now; opening the demo score instead. Fix it and open it again from the console.`,
        );
        scorePath = demo;
      } else if (err.code === 'EADDRINUSE' && (ports.port !== 0 || ports.controlPort !== 0)) {
        notices.push('A port was taken while starting: using free ports instead.');
        ports.port = 0;
        ports.controlPort = 0;
      } else throw err;
    }
  }
  if (!server) throw new StartupError('START_FAILED', 'The show server could not start.');

  // Into the server's log too, so the console page's Log panel shows them, not only the terminal.
  for (const notice of notices) server.log.warn(notice);
  // A score given on the command line counts as opened.
  if (asked) onChange({ scorePath: asked });
  return { server, notices, scorePath };
}
