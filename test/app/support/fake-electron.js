// THE ONLY FAKE in the app tests: a stand-in for the `electron` module (no Electron binary can
// run or be downloaded on this project's machines). It has the shape of the APIs app/main uses
// and records what was asked of it; everything else in these tests is real.

import { EventEmitter } from 'node:events';

export class FakeWebContents extends EventEmitter {
  constructor() {
    super();
    this.sent = [];
    this.openHandler = null;
    this.url = '';
    this.loading = false;
  }
  isLoading() {
    return this.loading;
  }
  send(channel, payload) {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(fn) {
    this.openHandler = fn;
  }
  getURL() {
    return this.url;
  }
}

/**
 * @param {{ userData?: string, singleInstance?: boolean, encryption?: 'available' | 'unavailable' | 'basic_text' }} [options]
 *   encryption: what safeStorage offers (a keychain, nothing, or Linux's fixed-key fallback)
 */
export function createFakeElectron({ userData, singleInstance = true, encryption = 'available' } = {}) {
  const windows = [];
  const forks = [];
  const handlers = new Map();
  const calls = { quit: 0, menus: [], openExternal: [], recentDocuments: [], errorBoxes: [], dialogs: [], blockers: [] };

  // powerSaveBlocker: ids handed out, the ones still started, every start/stop in order.
  const started = new Set();
  let nextBlocker = 1;
  const powerSaveBlocker = {
    start: (type) => {
      const id = nextBlocker++;
      started.add(id);
      calls.blockers.push({ start: type, id });
      return id;
    },
    stop: (id) => {
      started.delete(id);
      calls.blockers.push({ stop: id });
    },
    isStarted: (id) => started.has(id),
  };

  // safeStorage: a reversible transformation standing in for the OS keychain (tests check that
  // the clear token never reaches the settings file and comes back after a restart).
  const safeStorage = {
    isEncryptionAvailable: () => encryption !== 'unavailable',
    getSelectedStorageBackend: () => (encryption === 'basic_text' ? 'basic_text' : 'gnome_libsecret'),
    encryptString: (text) => {
      if (encryption === 'unavailable') throw new Error('Encryption is not available.');
      return Buffer.from(`fake-keychain:${text}`, 'utf8').map((b) => b ^ 0x5a);
    },
    decryptString: (data) => {
      const text = Buffer.from(data)
        .map((b) => b ^ 0x5a)
        .toString('utf8');
      if (!text.startsWith('fake-keychain:'))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return text.slice('fake-keychain:'.length);
    },
  };

  class BrowserWindow extends EventEmitter {
    constructor(options) {
      super();
      this.options = options;
      this.webContents = new FakeWebContents();
      this.loaded = [];
      this.destroyed = false;
      this.focused = 0;
      this.minimized = false;
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url) {
      this.loaded.push(url);
      this.webContents.url = url;
      return Promise.resolve();
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return this.minimized;
    }
    restore() {
      this.minimized = false;
    }
    show() {}
    focus() {
      this.focused += 1;
    }
    close() {
      this.destroyed = true;
      this.emit('closed');
    }
  }

  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => singleInstance,
    quit: () => {
      calls.quit += 1;
    },
    whenReady: () => Promise.resolve(),
    getPath: (name) => {
      if (name !== 'userData') throw new Error(`fake electron: getPath(${name}) not faked`);
      return userData;
    },
    getVersion: () => '0.1.0-test',
    getName: () => 'Tutti',
    addRecentDocument: (path) => calls.recentDocuments.push(path),
    clearRecentDocuments: () => {},
  });

  class FakeUtilityProcess extends EventEmitter {
    constructor(entry, args, options) {
      super();
      this.entry = entry;
      this.args = args;
      this.options = options;
      this.messages = [];
      this.killed = false;
    }
    postMessage(message) {
      this.messages.push(message);
    }
    kill() {
      this.killed = true;
      setImmediate(() => this.emit('exit', 143));
      return true;
    }
  }

  const session = {
    permissionRequest: null,
    permissionCheck: null,
    headersReceived: null,
    setPermissionRequestHandler(fn) {
      this.permissionRequest = fn;
    },
    setPermissionCheckHandler(fn) {
      this.permissionCheck = fn;
    },
    webRequest: {
      onHeadersReceived(fn) {
        session.headersReceived = fn;
      },
    },
  };

  const electron = {
    app,
    BrowserWindow,
    ipcMain: {
      handle: (channel, fn) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, fn);
      },
      removeHandler: (channel) => handlers.delete(channel),
    },
    dialog: {
      showOpenDialog: async (win, options) => {
        calls.dialogs.push(options);
        return electron.dialog.nextResult ?? { canceled: true, filePaths: [] };
      },
      showErrorBox: (title, body) => calls.errorBoxes.push({ title, body }),
      nextResult: null,
    },
    Menu: {
      buildFromTemplate: (template) => ({ template }),
      setApplicationMenu: (menu) => calls.menus.push(menu),
    },
    shell: {
      openExternal: async (url) => {
        calls.openExternal.push(url);
      },
      showItemInFolder: () => {},
    },
    session: { defaultSession: session },
    powerSaveBlocker,
    safeStorage,
    utilityProcess: {
      fork: (entry, args, options) => {
        const child = new FakeUtilityProcess(entry, args, options);
        forks.push(child);
        return child;
      },
    },
  };

  return { electron, windows, forks, handlers, calls, session };
}
