// The console window, hardened: context isolation, sandbox, no Node in the page, the one
// preload; it may only show the console's own origin (anything else is refused or, for an
// ordinary web link such as the audience URL, handed to the system browser).

/**
 * BrowserWindow options. Exported so the test can check every hardening flag.
 * @param {string} preload absolute path of app/preload/index.cjs
 */
export function consoleWindowOptions(preload) {
  return {
    width: 1440,
    height: 940,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Tutti',
    backgroundColor: '#0b0e13',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

/** May the window navigate to `url`? Only within the console's origin. */
export function isConsoleUrl(url, origin) {
  try {
    return origin !== null && new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** A link worth opening in the system browser (http/https only: no file:, no custom schemes). */
export function isWebLink(url) {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * @param {{ BrowserWindow: any, shell: { openExternal: (url: string) => Promise<void> }, preload: string, origin: () => string | null }} deps
 */
export function createConsoleWindow({ BrowserWindow, shell, preload, origin }) {
  const win = new BrowserWindow(consoleWindowOptions(preload));
  const contents = win.webContents;
  const guard = (event, url) => {
    // Electron ≥ 25 passes the URL on the event; older versions as the second argument.
    const target = url ?? event?.url;
    if (!isConsoleUrl(target, origin())) {
      event.preventDefault();
      if (isWebLink(target)) shell.openExternal(target).catch(() => {});
    }
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) shell.openExternal(url).catch(() => {});
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  return win;
}
