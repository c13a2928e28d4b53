// The show server as the desktop app runs it (server-process.js forks it): what it starts with,
// and what each status change does in the app: pin its ports for restarts, open or reload the
// console window, keep the machine awake while playing, tell the console.

import { Events } from './ipc-channels.js';
import { sendToConsole } from './ipc.js';
import { createServerProcess } from './server-process.js';

/**
 * @param {object} deps
 * @param {any} deps.electron `app`, `dialog` and `utilityProcess` are used
 * @param {{ serverEntry: string, scoresDir: string }} deps.paths
 * @param {ReturnType<typeof import('./app-settings.js').createAppSettings>} deps.settings
 * @param {Record<string, any>} deps.launchOverrides this run's command-line choices (the score is dropped once opened)
 * @param {string} deps.controlToken
 * @param {ReturnType<typeof import('./keep-awake.js').createKeepAwake>} deps.keepAwake
 * @param {ReturnType<typeof import('./app-window.js').createAppWindow>} deps.windows
 * @param {(controlUrl: string) => string} deps.pageUrl
 * @param {() => void} deps.onScoreOpened a score was loaded (the recent list changed)
 * @param {{ warn: (msg: string) => void }} deps.log
 * @param {Partial<import('./server-process.js').ServerProcessOptions>} deps.serverOptions
 */
export function createAppServer(deps) {
  const { electron, paths, settings, launchOverrides, controlToken, keepAwake, windows, pageUrl, log } = deps;
  const { app, dialog, utilityProcess } = electron;
  const { store } = settings;
  let pinned = {};
  let origin = null;
  let consoleUrl = null;
  let lastStatus = null;

  const server = createServerProcess({
    fork: (entry, args, options) => utilityProcess.fork(entry, args, options),
    entry: paths.serverEntry,
    startMessage: () => ({
      type: 'start',
      settings: store.get(),
      // A restarted server keeps the token and ports, so the open console carries on.
      overrides: { ...settings.savedEdge(), ...launchOverrides, token: controlToken, ...pinned },
      scoresDir: paths.scoresDir,
      settingsPath: store.path,
      // The show position (crash resume) and the log file (tutti.log) live next to the settings.
      stateDir: app.getPath('userData'),
    }),
    onStatus,
    onTransport: (transport) => keepAwake.follow(transport),
    onSettings: (change) => {
      settings.save(change);
      if (typeof change.scorePath === 'string') {
        app.addRecentDocument?.(change.scorePath);
        deps.onScoreOpened();
      }
    },
    onLog: (level, msg) => {
      if (level !== 'info') log.warn(msg);
    },
    ...deps.serverOptions,
  });

  /** @param {import('./server-process.js').ServerStatus} status */
  function onStatus(status) {
    lastStatus = status;
    if (status.state === 'running') {
      const info = status.info;
      delete launchOverrides.scorePath; // opened: restarts reopen the last score loaded (settings)
      keepAwake.follow(info.transport);
      pinned = { port: info.audiencePort, controlPort: info.controlPort };
      origin = new URL(info.controlUrl).origin;
      if (!windows.get()) windows.open(info.controlUrl);
      else if (info.controlUrl !== consoleUrl) windows.get().loadURL(pageUrl(info.controlUrl));
      consoleUrl = info.controlUrl;
      for (const notice of info.notices ?? []) log.warn(notice);
    } else if (status.state === 'restarting' && launchOverrides.scorePath) {
      // The score from the command line / the OS would fail again: start without it.
      log.warn(`could not open ${launchOverrides.scorePath} (${status.reason}); starting with the last score instead`);
      delete launchOverrides.scorePath;
    } else if (status.state === 'stopped' || status.state === 'failed') {
      keepAwake.release();
    }
    if (status.state === 'restarting' && !windows.get() && status.attempt === 3) {
      dialog.showErrorBox(
        'Tutti cannot start its show server',
        `${status.reason}\n\nIt keeps trying; if this persists, check the score and the ports in ${store.path}.`,
      );
    }
    const { info, ...rest } = status;
    const payload = info ? { ...rest, audienceUrl: info.audienceUrl, notices: info.notices ?? [] } : rest;
    sendToConsole(windows.get(), Events.SERVER_STATUS, payload);
  }

  return {
    process: server,
    /** The control listener's origin once it runs (the only one the window and IPC trust). */
    origin: () => origin,
    consoleUrl: () => consoleUrl,
    lastStatus: () => lastStatus,
  };
}
