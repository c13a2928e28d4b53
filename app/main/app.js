// The desktop app, kept thin: main() takes the single-instance lock and waits for ready; then
// one setupX() per concern. Electron's APIs come in as a parameter, so tests drive this whole
// file with a fake `electron` object.

import { randomBytes } from 'node:crypto';
import { Invoke, Events } from './ipc-channels.js';
import { registerIpc, sendToConsole, fromConsole } from './ipc.js';
import { createConsoleWindow } from './window.js';
import { hardenSession, hardenAllContents } from './security.js';
import { createServerProcess } from './server-process.js';
import { createSettingsStore } from './settings-store.js';
import { menuTemplate } from './menu.js';
import { pickScore } from './scores.js';
import { createKeepAwake } from './keep-awake.js';
import { parseDesktopArgs, userArgs } from './launch-args.js';
import { createEdgeTokenStore, TOKEN_NOT_SAVED } from './edge-token-store.js';

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
  const { app, BrowserWindow, ipcMain, dialog, Menu, shell, session, utilityProcess, powerSaveBlocker, safeStorage } = electron;
  const { argv = [], defaultApp = false, cwd = process.cwd(), env = {} } = launch;
  // The flags of `tutti serve` (npm start passes them through), or a score file the OS hands us.
  const parsed = parseDesktopArgs(userArgs(argv, defaultApp), { env, cwd });
  /** This run's choices for the show server; the score only until it has been opened once. */
  const launchOverrides = parsed.overrides;
  const controlToken = launchOverrides.token ?? token ?? randomBytes(18).toString('base64url');
  const keepAwake = createKeepAwake({ powerSaveBlocker });
  /** @type {ReturnType<typeof createEdgeTokenStore>} */
  let edgeTokens;
  /** A score to load once the console page is there (opened from the OS while starting). */
  let pendingScore = null;
  /** @type {any} */
  let win = null;
  /** @type {ReturnType<typeof createSettingsStore>} */
  let store;
  /** @type {ReturnType<typeof createServerProcess>} */
  let server;
  let origin = null;
  let consoleUrl = null;
  let pinned = {};
  let quitting = false;
  let lastStatus = null;

  function main() {
    if (!app.requestSingleInstanceLock()) {
      app.quit(); // the console already runs: the 'second-instance' handler there brings it forward
      return false;
    }
    for (const problem of parsed.errors) log.warn(`command line: ${problem} (ignored)`);
    // Opening a score with Tutti: the OS starts a second instance with the file (Windows, Linux)…
    app.on('second-instance', (_event, otherArgv, workingDirectory) => {
      focusWindow();
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
      if (!win && consoleUrl) openWindow(consoleUrl);
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
    setupSecurity();
    setupIpc();
    setupMenu();
    setupServer();
  }

  function setupSettings() {
    store = createSettingsStore({ dir: app.getPath('userData'), warn: log.warn });
    store.load();
    edgeTokens = createEdgeTokenStore({ safeStorage, warn: log.warn });
  }

  /** The edge mirror as it was left (URL + decrypted token), unless the command line says otherwise. */
  function savedEdge() {
    const { edgeUrl, edgeTokenEncrypted } = store.get();
    if (launchOverrides.edgeUrl || !edgeUrl || !edgeTokenEncrypted) return {};
    const edgeToken = edgeTokens.open(edgeTokenEncrypted);
    return edgeToken ? { edgeUrl, edgeToken } : {};
  }

  /** Persist what the console changed; the edge token only encrypted (never in clear). */
  function saveSettings(change) {
    const { edgeToken, ...rest } = change;
    if ('edgeToken' in change) {
      const sealed = typeof edgeToken === 'string' ? edgeTokens.seal(edgeToken) : null;
      if (typeof edgeToken === 'string' && edgeToken && !sealed) {
        // Into the console's Log panel (and from there to main's log), or straight to main's log.
        if (server?.running()) server.notice(TOKEN_NOT_SAVED);
        else log.warn(TOKEN_NOT_SAVED);
      }
      rest.edgeTokenEncrypted = sealed;
    }
    store.update(rest);
  }

  function setupSecurity() {
    hardenSession({ session: session.defaultSession, origin: () => origin });
  }

  function setupIpc() {
    registerIpc({
      ipcMain,
      isTrustedSender: (event) => fromConsole(event, () => origin),
      handlers: {
        [Invoke.OPEN_SCORE_DIALOG]: () =>
          pickScore({ dialog, window: win, recentScores: store.get().recentScores, scoresDir: paths.scoresDir }),
        [Invoke.APP_INFO]: () => ({ version: app.getVersion(), platform: process.platform, settingsPath: store.path }),
      },
    });
  }

  function setupMenu() {
    const template = menuTemplate({
      platform: process.platform,
      appName: app.getName(),
      recentScores: store.get().recentScores,
      isPackaged: app.isPackaged,
      command: (c) => sendToConsole(win, Events.MENU_COMMAND, c),
      clearRecent: () => {
        store.update({ clearRecent: true });
        app.clearRecentDocuments?.();
        setupMenu();
      },
      openAudience: () => {
        const url = server?.info()?.audienceUrl;
        if (url) shell.openExternal(`${url}/`).catch(() => {});
      },
      showSettings: () => shell.showItemInFolder(store.path),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }

  function setupServer() {
    server = createServerProcess({
      fork: (entry, args, options) => utilityProcess.fork(entry, args, options),
      entry: paths.serverEntry,
      startMessage: () => ({
        type: 'start',
        settings: store.get(),
        // A restarted server keeps the token and ports, so the open console carries on.
        overrides: { ...savedEdge(), ...launchOverrides, token: controlToken, ...pinned },
        scoresDir: paths.scoresDir,
        settingsPath: store.path,
        // The show position (crash resume) and the log file (tutti.log) live next to the settings.
        stateDir: app.getPath('userData'),
      }),
      onStatus,
      onTransport: (transport) => keepAwake.follow(transport),
      onSettings: (change) => {
        saveSettings(change);
        if (typeof change.scorePath === 'string') {
          app.addRecentDocument?.(change.scorePath);
          setupMenu();
        }
      },
      onLog: (level, msg) => {
        if (level !== 'info') log.warn(msg);
      },
      ...serverOptions,
    });
    server.start();
  }

  /** @param {import('./server-process.js').ServerStatus} status */
  function onStatus(status) {
    lastStatus = status;
    if (status.state === 'running') {
      const info = status.info;
      delete launchOverrides.scorePath; // opened: restarts reopen the last score loaded (settings)
      keepAwake.follow(info.transport);
      pinned = { port: info.audiencePort, controlPort: info.controlPort };
      origin = new URL(info.controlUrl).origin;
      if (!win) openWindow(info.controlUrl);
      else if (info.controlUrl !== consoleUrl) win.loadURL(pageUrl(info.controlUrl));
      consoleUrl = info.controlUrl;
      for (const notice of info.notices ?? []) log.warn(notice);
    } else if (status.state === 'restarting' && launchOverrides.scorePath) {
      // The score from the command line / the OS would fail again: start without it.
      log.warn(`could not open ${launchOverrides.scorePath} (${status.reason}); starting with the last score instead`);
      delete launchOverrides.scorePath;
    } else if (status.state === 'stopped' || status.state === 'failed') {
      keepAwake.release();
    }
    if (status.state === 'restarting' && !win && status.attempt === 3) {
      dialog.showErrorBox(
        'Tutti cannot start its show server',
        `${status.reason}\n\nIt keeps trying; if this persists, check the score and the ports in ${store.path}.`,
      );
    }
    const { info, ...rest } = status;
    sendToConsole(win, Events.SERVER_STATUS, info ? { ...rest, audienceUrl: info.audienceUrl, notices: info.notices ?? [] } : rest);
  }

  const pageUrl = (controlUrl) => `${controlUrl}/?token=${encodeURIComponent(controlToken)}`;

  /** A score file opened from the OS: the first start opens it, a running console loads it (asking first while playing). */
  function openScoreFile(path) {
    if (!server) {
      launchOverrides.scorePath = path;
      return;
    }
    pendingScore = path;
    deliverPendingScore();
    focusWindow();
  }

  function deliverPendingScore() {
    if (!pendingScore || !win || win.isDestroyed() || win.webContents.isLoading()) return;
    sendToConsole(win, Events.MENU_COMMAND, { command: 'load-score', path: pendingScore });
    pendingScore = null;
  }

  function openWindow(controlUrl) {
    win = createConsoleWindow({ BrowserWindow, shell, preload: paths.preload, origin: () => origin });
    win.on('closed', () => {
      win = null;
    });
    win.webContents.on('did-finish-load', deliverPendingScore);
    win.loadURL(pageUrl(controlUrl));
  }

  function focusWindow() {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  return {
    main,
    /** For tests and diagnostics: what the app currently holds (never the token). */
    state: () => ({ window: win, origin, consoleUrl, lastStatus, settingsPath: store?.path ?? null, keepingAwake: keepAwake.active() }),
    server: () => server,
  };
}
