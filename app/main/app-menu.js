// The desktop app's menu bar (menu.js holds its template): built from the recent scores, and
// built again whenever they change.

import { Events } from './ipc-channels.js';
import { sendToConsole } from './ipc.js';
import { menuTemplate } from './menu.js';

/**
 * Set the application menu now; the returned function sets it again (the recent list changed).
 * @param {object} deps
 * @param {any} deps.electron `app`, `Menu` and `shell` are used
 * @param {ReturnType<typeof import('./app-settings.js').createAppSettings>['store']} deps.store
 * @param {() => any} deps.window the console window, or null
 * @param {() => any} deps.server the show server's process, once started
 * @returns {() => void}
 */
export function installAppMenu({ electron, store, window, server }) {
  const { app, Menu, shell } = electron;
  function build() {
    const template = menuTemplate({
      platform: process.platform,
      appName: app.getName(),
      recentScores: store.get().recentScores,
      isPackaged: app.isPackaged,
      command: (c) => sendToConsole(window(), Events.MENU_COMMAND, c),
      clearRecent: () => {
        store.update({ clearRecent: true });
        app.clearRecentDocuments?.();
        build();
      },
      openAudience: () => {
        const url = server()?.info()?.audienceUrl;
        if (url) shell.openExternal(`${url}/`).catch(() => {});
      },
      showSettings: () => shell.showItemInFolder(store.path),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }
  build();
  return build;
}
