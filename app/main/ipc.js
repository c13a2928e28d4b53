// IPC in the main process: one handler per Invoke channel (no more, no fewer), each refusing
// senders that are not the console page; and the only way to send Events to the window.

import { Invoke, Events, MenuCommands } from './ipc-channels.js';

/**
 * Register the request handlers.
 * @param {{ ipcMain: { handle: Function, removeHandler: Function }, handlers: Record<string, (...args: any[]) => any>, isTrustedSender: (event: any) => boolean }} options
 * @returns {() => void} removes the handlers
 */
export function registerIpc({ ipcMain, handlers, isTrustedSender }) {
  /** @type {string[]} */
  const channels = Object.values(Invoke);
  const unknown = Object.keys(handlers).filter((c) => !channels.includes(c));
  if (unknown.length)
    throw new Error(`IPC handlers for undeclared channels: ${unknown.join(', ')} (declare them in app/main/ipc-channels.js)`);
  for (const channel of channels) {
    const handler = handlers[channel];
    if (typeof handler !== 'function') throw new Error(`no IPC handler for ${channel}`);
    ipcMain.handle(channel, async (event, ...args) => {
      if (!isTrustedSender(event)) throw new Error(`refused ${channel}: the sender is not the Tutti console`);
      return handler(...args);
    });
  }
  return () => channels.forEach((c) => ipcMain.removeHandler(c));
}

/**
 * Send an event to the console window; only declared Events (and known menu commands) pass.
 * @param {{ isDestroyed: () => boolean, webContents: { send: Function } } | null} window
 * @param {string} channel
 * @param {any} payload
 * @returns {boolean} whether it was sent
 */
export function sendToConsole(window, channel, payload) {
  /** @type {string[]} */
  const events = Object.values(Events);
  if (!events.includes(channel)) throw new Error(`undeclared IPC event channel ${channel}`);
  if (channel === Events.MENU_COMMAND && !MenuCommands.includes(payload?.command))
    throw new Error(`unknown menu command ${payload?.command}`);
  if (!window || window.isDestroyed()) return false;
  window.webContents.send(channel, payload);
  return true;
}

/**
 * Is an IPC event from a frame of the console's origin?
 * @param {any} event
 * @param {() => string | null} origin the console's origin (changes if the server moves port)
 */
export function fromConsole(event, origin) {
  const url = event?.senderFrame?.url;
  if (typeof url !== 'string' || !origin()) return false;
  try {
    return new URL(url).origin === origin();
  } catch {
    return false;
  }
}
