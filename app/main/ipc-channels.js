// Every IPC channel between the desktop app's main process and the console window, in one place.
// The sandboxed preload (app/preload/index.cjs) cannot import this file, so it repeats the names;
// test/app/main.test.js checks that the two agree and that nothing else is exposed.

/** Renderer → main requests (ipcRenderer.invoke / ipcMain.handle). */
export const Invoke = Object.freeze({
  /** Show the native Open dialog; resolves to the chosen score path or null. */
  OPEN_SCORE_DIALOG: 'score:open-dialog',
  /** { version, platform, settingsPath }. */
  APP_INFO: 'app:info',
});

/** Main → renderer notifications (webContents.send / ipcRenderer.on). */
export const Events = Object.freeze({
  /** The show server's process: { state: 'starting' | 'running' | 'restarting' | 'failed', … }. */
  SERVER_STATUS: 'server:status',
  /** A menu item the console acts on: { command, path? }. */
  MENU_COMMAND: 'menu:command',
});

/** Commands carried by Events.MENU_COMMAND. */
export const MenuCommands = Object.freeze(['open-score', 'load-score', 'play-pause', 'stop', 'jump']);

export const ALL_CHANNELS = Object.freeze([...Object.values(Invoke), ...Object.values(Events)]);
