// The desktop app's one console window (window.js builds it): opened when the show server first
// runs, reloaded when its address changes, brought forward on a second launch, and handed the
// score file the OS opened once its page has loaded.

import { Events } from './ipc-channels.js';
import { sendToConsole } from './ipc.js';
import { createConsoleWindow } from './window.js';

/**
 * @param {object} deps
 * @param {any} deps.BrowserWindow
 * @param {any} deps.shell
 * @param {string} deps.preload
 * @param {() => string | null} deps.origin the control listener's origin (the only one the window may show)
 * @param {(controlUrl: string) => string} deps.pageUrl the console page's address (with the token)
 */
export function createAppWindow({ BrowserWindow, shell, preload, origin, pageUrl }) {
  /** @type {any} */
  let win = null;
  /** A score to load once the console page is there (opened from the OS while starting). */
  let pendingScore = null;

  function deliverPendingScore() {
    if (!pendingScore || !win || win.isDestroyed() || win.webContents.isLoading()) return;
    sendToConsole(win, Events.MENU_COMMAND, { command: 'load-score', path: pendingScore });
    pendingScore = null;
  }

  return {
    /** The window, or null while there is none. */
    get: () => win,
    /** @param {string} controlUrl */
    open(controlUrl) {
      win = createConsoleWindow({ BrowserWindow, shell, preload, origin });
      win.on('closed', () => {
        win = null;
      });
      win.webContents.on('did-finish-load', deliverPendingScore);
      win.loadURL(pageUrl(controlUrl));
    },
    focus() {
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    /** Load `path` in the console now, or as soon as its page has loaded. @param {string} path */
    loadScore(path) {
      pendingScore = path;
      deliverPendingScore();
    },
  };
}
