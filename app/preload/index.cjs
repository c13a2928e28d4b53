// The console window's preload: one sandboxed CommonJS file (a sandboxed preload can require
// nothing but 'electron' and a few built-ins, so the channel names are repeated here instead of
// imported; test/app/main.test.js checks them against app/main/ipc-channels.js).
//
// It exposes exactly one object, window.tutti, with four functions. No ipcRenderer, no event
// objects and no Node API ever reach the page: listeners receive the payload only.

'use strict';

const { contextBridge, ipcRenderer } = require('electron');

const INVOKE = Object.freeze({ openScoreDialog: 'score:open-dialog', appInfo: 'app:info' });
const EVENTS = Object.freeze({ serverStatus: 'server:status', menuCommand: 'menu:command' });

/** Subscribe to a main → page event; returns an unsubscribe function. */
function subscribe(channel, listener) {
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  const forward = (_event, payload) => listener(payload);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

contextBridge.exposeInMainWorld('tutti', {
  platform: 'electron',
  /** @returns {Promise<string | null>} the chosen score file, or null */
  openScoreDialog: () => ipcRenderer.invoke(INVOKE.openScoreDialog),
  /** @returns {Promise<{ version: string, platform: string, settingsPath: string }>} */
  appInfo: () => ipcRenderer.invoke(INVOKE.appInfo),
  /** @param {(status: object) => void} listener */
  onServerStatus: (listener) => subscribe(EVENTS.serverStatus, listener),
  /** @param {(command: { command: string, path?: string }) => void} listener */
  onMenuCommand: (listener) => subscribe(EVENTS.menuCommand, listener),
});
