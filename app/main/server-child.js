// Entry of the show server's utility process (Electron `utilityProcess.fork`). The main process
// sends { type: 'start', … }; this starts the server and answers { type: 'ready', URLs and
// ports } or { type: 'failed' } (then exits, and main restarts it with backoff).
// Console changes worth saving travel back as { type: 'settings', change }; main owns the file.
// { type: 'notice', msg } from main is logged as a warning (the console's Log panel shows it).
// Transport changes travel back as { type: 'transport', state } (main keeps the laptop awake
// while the show plays: keep-awake.js).
// Nothing here touches Electron APIs: `process.parentPort` is the only link, so tests drive
// runServerChild with a fake port object.

import { launchShow } from './launch-show.js';
import { applySettingsChange } from './settings-store.js';
import { createLog, dropOutputToClosedReaders, resumeFileFor, logFileFor, recordDirFor, partKeyFileFor } from '../../local-server/index.js';

/**
 * @param {{ port: { on: (event: 'message', fn: (e: { data: any }) => void) => void, postMessage: (msg: any) => void }, exit?: (code: number) => void, launch?: typeof launchShow }} deps
 */
export function runServerChild({ port, exit = (code) => process.exit(code), launch = launchShow }) {
  let server = null;
  let settings = null;
  let starting = false;
  let log = null;

  port.on('message', async ({ data }) => {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'start' && !server && !starting) {
      starting = true;
      settings = data.settings;
      log = createLog({
        redact: [data.overrides?.token, data.overrides?.edgeToken],
        print: (level, msg) => port.postMessage({ type: 'log', level, msg }),
      });
      try {
        const launched = await launch({
          settings,
          overrides: data.overrides ?? {},
          scoresDir: data.scoresDir,
          settingsPath: data.settingsPath,
          // The app's user-data folder, unless --state-file/--no-resume/--log-file/--no-log-file/--record-dir/--no-record say otherwise.
          stateFile: typeof data.stateDir === 'string' ? resumeFileFor(data.overrides ?? {}, data.stateDir) : null,
          logFile: typeof data.stateDir === 'string' ? logFileFor(data.overrides ?? {}, data.stateDir) : null,
          // Every show is recorded (docs/how-to/record-and-replay.md#the-performance-record) unless --no-record says otherwise.
          recordDir: typeof data.stateDir === 'string' ? recordDirFor(data.overrides ?? {}, data.stateDir) : null,
          // The musicians' part-page key, kept so that the tablets' links survive a restart.
          partKeyFile: typeof data.stateDir === 'string' ? partKeyFileFor(data.stateDir) : null,
          mode: 'electron',
          log,
          recentScores: () => settings.recentScores,
          onChange: (change) => {
            settings = applySettingsChange(settings, change);
            port.postMessage({ type: 'settings', change });
          },
        });
        server = launched.server;
        server.show.events.on('transport', (state) => port.postMessage({ type: 'transport', state }));
        port.postMessage({
          type: 'ready',
          audienceUrl: server.audienceUrl,
          controlUrl: server.controlUrl,
          audiencePort: server.audiencePort,
          controlPort: Number(new URL(server.controlUrl).port),
          scorePath: launched.scorePath,
          notices: launched.notices,
          transport: server.status().transport,
        });
      } catch (err) {
        const problems = (err.problems ?? []).slice(0, 20);
        port.postMessage({ type: 'failed', code: err.code ?? 'START_FAILED', message: err.message, problems });
        exit(1);
      } finally {
        starting = false;
      }
    } else if (data.type === 'notice' && typeof data.msg === 'string') {
      log?.warn(data.msg);
    } else if (data.type === 'stop') {
      await server?.close();
      server = null;
      exit(0);
    }
  });
}

// Inside Electron's utility process only; importing this file anywhere else does nothing.
const parentPort = /** @type {any} */ (process).parentPort;
if (parentPort) {
  // Its stdout is the app's (a terminal the app was started from, which may close mid-show).
  dropOutputToClosedReaders();
  runServerChild({ port: parentPort });
}
