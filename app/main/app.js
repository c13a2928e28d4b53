// The desktop app, kept thin: main() takes the single-instance lock and waits for ready; then
// one setupX() per concern. Electron's APIs come in as a parameter, so tests drive this whole
// file with a fake `electron` object.

import { randomBytes } from 'node:crypto';
import { Invoke } from './ipc-channels.js';
import { registerIpc, fromConsole } from './ipc.js';
import { hardenSession, hardenAllContents } from './security.js';
import { createAppServer } from './app-server.js';
import { createAppSettings } from './app-settings.js';
import { createAppWindow } from './app-window.js';
import { installAppMenu } from './app-menu.js';
import { pickScore } from './scores.js';
import { createKeepAwake } from './keep-awake.js';
import { parseDesktopArgs, userArgs } from './launch-args.js';

/**
 * @param {object} deps
 * @param {any} deps.electron the `electron` module (or a fake with the same shape)
 * @param {{ preload: string, serverEntry: string, scoresDir: string }} deps.paths
 * @param {{ warn: (msg: string) => void }} [deps.log]
 * @param {Partial<import('./server-process.js').ServerProcessOptions>} [deps.serverOptions] backoff tuning (tests)
 * @param {string} [deps.token] control token (random per run by default, or --token; never logged)
 * @param {{ argv?: string[], defaultApp?: boolean, cwd?: string, env?: Record<string, string | undefined> }} [deps.launch]
 *   this run's command line (process.argv; defaultApp when run as `electron <folder>`), cwd and environment
 */
export function createDesktopApp({
  electron,
  paths,
  log = { warn: (msg) => console.warn(`tutti: ${msg}`) },
  serverOptions = {},
  token,
  launch = {},
}) {
  const { app, BrowserWindow, ipcMain, dialog, shell, session, powerSaveBlocker, safeStorage } = electron;
  const { argv = [], defaultApp = false, cwd = process.cwd(), env = {} } = launch;
  // The flags of `tutti serve` (npm start passes them through), or a score file the OS hands us.
  const parsed = parseDesktopArgs(userArgs(argv, defaultApp), { env, cwd });
  /** This run's choices for the show server; the score only until it has been opened once. */
  const launchOverrides = parsed.overrides;
  const controlToken = launchOverrides.token ?? token ?? randomBytes(18).toString('base64url');
  const keepAwake = createKeepAwake({ powerSaveBlocker });
  /** @type {ReturnType<typeof createAppSettings>} */
  let settings;
  /** @type {ReturnType<typeof createAppSettings>['store']} */
  let store;
  /** @type {ReturnType<typeof import('./server-process.js').createServerProcess>} */
  let server;
  /** @type {ReturnType<typeof createAppServer>} */
  let showServer;
  /** The control listener's origin once the show server runs (null until then). */
  const origin = () => showServer?.origin() ?? null;
  const pageUrl = (controlUrl) => `${controlUrl}/?token=${encodeURIComponent(controlToken)}`;
  const windows = createAppWindow({ BrowserWindow, shell, preload: paths.preload, origin, pageUrl });
  let quitting = false;
  /** Sets the menu bar again (the recent scores changed). */
  let rebuildMenu = () => {};

  function main() {
    if (!app.requestSingleInstanceLock()) {
      app.quit(); // the console already runs: the 'second-instance' handler there brings it forward
      return false;
    }
    for (const problem of parsed.errors) log.warn(`command line: ${problem} (ignored)`);
    // Opening a score with Tutti: the OS starts a second instance with the file (Windows, Linux)…
    app.on('second-instance', (_event, otherArgv, workingDirectory) => {
      windows.focus();
      const other = parseDesktopArgs(userArgs(otherArgv ?? [], defaultApp), { cwd: workingDirectory || cwd });
      if (other.overrides.scorePath) openScoreFile(other.overrides.scorePath);
    });
    // …or, on macOS, sends 'open-file' (also before 'ready' when it launches the app for it).
    app.on('open-file', (event, path) => {
      event.preventDefault();
      openScoreFile(path);
    });
    app.on('window-all-closed', () => app.quit());
    app.on('activate', () => {
      if (!windows.get() && showServer?.consoleUrl()) windows.open(showServer.consoleUrl());
    });
    app.on('before-quit', (event) => {
      if (quitting || !server?.running()) return;
      event.preventDefault(); // stop the show server cleanly first (viewers are told it is going away)
      quitting = true;
      server.stop().finally(() => app.quit());
    });
    hardenAllContents({ app });
    return app.whenReady().then(onReady);
  }

  function onReady() {
    setupSettings();
    hardenSession({ session: session.defaultSession, origin });
    setupIpc();
    rebuildMenu = installAppMenu({ electron, store, window: windows.get, server: () => server });
    setupServer();
  }

  function setupSettings() {
    settings = createAppSettings({ dir: app.getPath('userData'), safeStorage, warn: log.warn, launchOverrides, server: () => server });
    store = settings.store;
  }

  function setupIpc() {
    registerIpc({
      ipcMain,
      isTrustedSender: (event) => fromConsole(event, origin),
      handlers: {
        [Invoke.OPEN_SCORE_DIALOG]: () =>
          pickScore({ dialog, window: windows.get(), recentScores: store.get().recentScores, scoresDir: paths.scoresDir }),
        [Invoke.APP_INFO]: () => ({ version: app.getVersion(), platform: process.platform, settingsPath: store.path }),
      },
    });
  }

  function setupServer() {
    const deps = { electron, paths, settings, launchOverrides, controlToken, keepAwake, windows, pageUrl, log, serverOptions };
    showServer = createAppServer({ ...deps, onScoreOpened: () => rebuildMenu() });
    server = showServer.process;
    server.start();
  }

  /** A score file opened from the OS: the first start opens it, a running console loads it (asking first while playing). */
  function openScoreFile(path) {
    if (!server) {
      launchOverrides.scorePath = path;
      return;
    }
    windows.loadScore(path);
    windows.focus();
  }

  return {
    main,
    /** For tests and diagnostics: what the app currently holds (never the token). */
    state: () => ({
      window: windows.get(),
      origin: origin(),
      consoleUrl: showServer?.consoleUrl() ?? null,
      lastStatus: showServer?.lastStatus() ?? null,
      settingsPath: store?.path ?? null,
      keepingAwake: keepAwake.active(),
    }),
    server: () => server,
  };
}
