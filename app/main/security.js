// Session-wide hardening: the console's CSP on every response from its origin (the server
// sends it too; this also covers anything it might forget), no permissions except writing the
// audience URL to the clipboard, no <webview>, no new windows from any web contents.

import { CONSOLE_CSP } from '../../local-server/index.js';

export { CONSOLE_CSP };

/**
 * @param {{ session: any, origin: () => string | null }} deps
 */
export function hardenSession({ session, origin }) {
  const fromConsole = (url) => {
    try {
      return origin() !== null && new URL(url).origin === origin();
    } catch {
      return false;
    }
  };
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    callback(permission === 'clipboard-sanitized-write' && fromConsole(details?.requestingUrl ?? webContents.getURL()));
  });
  session.setPermissionCheckHandler(
    (webContents, permission, requestingOrigin) => permission === 'clipboard-sanitized-write' && requestingOrigin === origin(),
  );
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!fromConsole(details.url)) return callback({ responseHeaders: details.responseHeaders });
    const headers = { ...details.responseHeaders };
    for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-security-policy') delete headers[key];
    headers['Content-Security-Policy'] = [CONSOLE_CSP];
    return callback({ responseHeaders: headers });
  });
}

/**
 * Guards for every web contents the app ever creates (defence in depth).
 * @param {{ app: any }} deps
 */
export function hardenAllContents({ app }) {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
