// The desktop app's main-process modules. Electron cannot run here, so `electron` is replaced by
// test/app/support/fake-electron.js — the ONLY fake in these tests, handed in by dependency
// injection (app/main takes its Electron APIs as parameters). The settings files, the show
// server started by the utility-process entry, its sockets and the preload's source are real.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { createFakeElectron } from './support/fake-electron.js';
import { Invoke, Events, ALL_CHANNELS, MenuCommands } from '../../app/main/ipc-channels.js';
import { registerIpc, sendToConsole, fromConsole } from '../../app/main/ipc.js';
import { consoleWindowOptions, createConsoleWindow } from '../../app/main/window.js';
import { hardenSession, CONSOLE_CSP } from '../../app/main/security.js';
import { createServerProcess } from '../../app/main/server-process.js';
import { createDesktopApp } from '../../app/main/app.js';
import { menuTemplate } from '../../app/main/menu.js';
import { createSettingsStore, sanitizeSettings, applySettingsChange, browserConfigDir } from '../../app/main/settings-store.js';
import { runServerChild } from '../../app/main/server-child.js';
import { waitFor } from '../support/clients.js';

const PRELOAD = fileURLToPath(new URL('../../app/preload/index.cjs', import.meta.url));
const SCORES = fileURLToPath(new URL('../../scores/', import.meta.url));

/** Run the real preload file in a fresh context with a fake 'electron' renderer module. */
function loadPreload() {
  const exposed = [];
  const used = { invoke: [], on: [], removeListener: [] };
  const listeners = new Map();
  const ipcRenderer = {
    invoke: (channel, ...args) => {
      used.invoke.push(channel);
      return Promise.resolve({ channel, args });
    },
    on: (channel, fn) => {
      used.on.push(channel);
      listeners.set(channel, fn);
    },
    removeListener: (channel, fn) => {
      used.removeListener.push(channel);
      if (listeners.get(channel) === fn) listeners.delete(channel);
    },
  };
  const required = [];
  const sandboxRequire = (name) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
    return { contextBridge: { exposeInMainWorld: (key, api) => exposed.push({ key, api }) }, ipcRenderer };
  };
  const module = { exports: {} };
  vm.runInNewContext(
    readFileSync(PRELOAD, 'utf8'),
    { require: sandboxRequire, module, exports: module.exports, Object, TypeError },
    { filename: PRELOAD },
  );
  return { exposed, used, listeners, required };
}

const trusted = (url) => ({ senderFrame: { url } });

describe('IPC contract', () => {
  test('the preload exposes exactly one object with four functions, and uses only declared channels', async () => {
    const { exposed, used, listeners, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    const [{ key, api }] = exposed;
    expect(key).toBe('tutti');
    expect(Object.keys(api).sort()).toEqual(['appInfo', 'onMenuCommand', 'onServerStatus', 'openScoreDialog', 'platform']);
    expect(api.platform).toBe('electron');
    for (const [name, value] of Object.entries(api)) if (name !== 'platform') expect(typeof value).toBe('function');

    await api.openScoreDialog();
    await api.appInfo();
    const received = [];
    const offStatus = api.onServerStatus((payload) => received.push(payload));
    const offMenu = api.onMenuCommand((payload) => received.push(payload));
    // Listeners get the payload only, never the IPC event (which would leak ipcRenderer).
    listeners.get(Events.SERVER_STATUS)({ sender: 'event object' }, { state: 'running' });
    expect(received).toEqual([{ state: 'running' }]);
    offStatus();
    offMenu();
    expect(listeners.size).toBe(0);
    expect(() => api.onMenuCommand('not a function')).toThrow(TypeError);

    expect(new Set(used.invoke)).toEqual(new Set(Object.values(Invoke)));
    expect(new Set(used.on)).toEqual(new Set(Object.values(Events)));
    expect(new Set([...used.invoke, ...used.on])).toEqual(new Set(ALL_CHANNELS));
  });

  test('main handles every invoke channel the preload uses, and nothing else', async () => {
    const { electron, handlers } = createFakeElectron();
    const origin = 'http://127.0.0.1:9999';
    registerIpc({
      ipcMain: electron.ipcMain,
      isTrustedSender: (e) => fromConsole(e, () => origin),
      handlers: { [Invoke.OPEN_SCORE_DIALOG]: () => '/x.score.json', [Invoke.APP_INFO]: () => ({ v: 1 }) },
    });
    expect([...handlers.keys()].sort()).toEqual(Object.values(Invoke).sort());
    expect(await handlers.get(Invoke.OPEN_SCORE_DIALOG)(trusted(`${origin}/`))).toBe('/x.score.json');
    // A frame from anywhere else is refused.
    await expect(handlers.get(Invoke.APP_INFO)(trusted('https://evil.example/'))).rejects.toThrow(/not the Tutti console/);
    await expect(handlers.get(Invoke.APP_INFO)({})).rejects.toThrow();

    expect(() =>
      registerIpc({
        ipcMain: createFakeElectron().electron.ipcMain,
        isTrustedSender: () => true,
        handlers: { [Invoke.APP_INFO]: () => 1 },
      }),
    ).toThrow(/no IPC handler/);
    expect(() =>
      registerIpc({
        ipcMain: createFakeElectron().electron.ipcMain,
        isTrustedSender: () => true,
        handlers: { [Invoke.APP_INFO]: () => 1, [Invoke.OPEN_SCORE_DIALOG]: () => 1, 'fs:read': () => 1 },
      }),
    ).toThrow(/undeclared/);
  });

  test('main can send only declared events and known menu commands', () => {
    const { electron } = createFakeElectron();
    const win = new electron.BrowserWindow({});
    expect(sendToConsole(win, Events.SERVER_STATUS, { state: 'running' })).toBe(true);
    for (const command of MenuCommands) expect(sendToConsole(win, Events.MENU_COMMAND, { command })).toBe(true);
    expect(() => sendToConsole(win, 'shell:exec', {})).toThrow(/undeclared/);
    expect(() => sendToConsole(win, Events.MENU_COMMAND, { command: 'rm -rf' })).toThrow(/unknown menu command/);
    win.destroyed = true;
    expect(sendToConsole(win, Events.SERVER_STATUS, {})).toBe(false);
    expect(sendToConsole(null, Events.SERVER_STATUS, {})).toBe(false);
  });
});

describe('window and session hardening', () => {
  test('the console window isolates the page from Node and Electron', () => {
    const { webPreferences } = consoleWindowOptions('/app/preload/index.cjs');
    expect(webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  test('navigation stays on the console origin; web links go to the system browser; no new windows', () => {
    const { electron, calls } = createFakeElectron();
    const origin = 'http://127.0.0.1:8081';
    const win = createConsoleWindow({
      BrowserWindow: electron.BrowserWindow,
      shell: electron.shell,
      preload: PRELOAD,
      origin: () => origin,
    });
    const navigate = (url, style = 'details') => {
      let prevented = false;
      const event = {
        url,
        preventDefault: () => {
          prevented = true;
        },
      };
      if (style === 'details') win.webContents.emit('will-navigate', event);
      else win.webContents.emit('will-navigate', event, url);
      return prevented;
    };
    expect(navigate(`${origin}/console/x`)).toBe(false);
    expect(navigate('http://127.0.0.1:8082/')).toBe(true); // another port is another origin
    expect(navigate('https://example.com/phish', 'legacy')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(calls.openExternal).toEqual(['http://127.0.0.1:8082/', 'https://example.com/phish']);
    expect(win.webContents.openHandler({ url: 'http://192.168.1.5:8080/' })).toEqual({ action: 'deny' });
    expect(win.webContents.openHandler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(calls.openExternal).toHaveLength(3);
  });

  test('the session adds the console CSP and denies every permission but clipboard writes from the console', () => {
    const { session } = createFakeElectron();
    const origin = 'http://127.0.0.1:8081';
    hardenSession({ session, origin: () => origin });
    let result;
    session.headersReceived({ url: `${origin}/`, responseHeaders: { 'content-security-policy': ['default-src *'], 'x-a': ['1'] } }, (r) => {
      result = r;
    });
    expect(result.responseHeaders['Content-Security-Policy']).toEqual([CONSOLE_CSP]);
    expect(result.responseHeaders['content-security-policy']).toBeUndefined();
    expect(result.responseHeaders['x-a']).toEqual(['1']);
    session.headersReceived({ url: 'https://elsewhere.example/', responseHeaders: { 'x-b': ['2'] } }, (r) => {
      result = r;
    });
    expect(result.responseHeaders).toEqual({ 'x-b': ['2'] });
    const ask = (permission, url) =>
      new Promise((resolve) => session.permissionRequest({ getURL: () => url }, permission, resolve, { requestingUrl: url }));
    return Promise.all([
      ask('media', `${origin}/`),
      ask('geolocation', `${origin}/`),
      ask('clipboard-sanitized-write', `${origin}/`),
      ask('clipboard-sanitized-write', 'https://x.example/'),
    ]).then((answers) => expect(answers).toEqual([false, false, true, false]));
  });
});

describe('show server in a utility process', () => {
  function harness(extra = {}) {
    const { electron, forks } = createFakeElectron();
    const statuses = [];
    const timers = [];
    let clock = 0;
    const proc = createServerProcess({
      fork: electron.utilityProcess.fork,
      entry: '/app/main/server-child.js',
      startMessage: () => ({ type: 'start', n: forks.length }),
      onStatus: (s) => statuses.push(s),
      setTimer: (fn, ms) => {
        const t = { fn, ms, cleared: false };
        timers.push(t);
        return t;
      },
      clearTimer: (t) => {
        t.cleared = true;
      },
      now: () => clock,
      ...extra,
    });
    const fire = () => {
      const t = timers.find((x) => !x.cleared && !x.fired);
      t.fired = true;
      t.fn();
      return t.ms;
    };
    return {
      proc,
      forks,
      statuses,
      timers,
      fire,
      advance: (ms) => {
        clock += ms;
      },
    };
  }

  test('restarts a dying server with growing, capped delays, and says why', () => {
    const h = harness({ delays: [100, 200, 400] });
    h.proc.start();
    expect(h.forks).toHaveLength(1);
    expect(h.forks[0].entry).toBe('/app/main/server-child.js');
    expect(h.forks[0].options.serviceName).toBe('Tutti show server');
    expect(h.forks[0].messages[0]).toEqual({ type: 'start', n: 1 });
    h.forks[0].emit('message', { type: 'ready', controlUrl: 'http://127.0.0.1:1' });
    expect(h.statuses.at(-1)).toMatchObject({ state: 'running', restarted: false });

    const delays = [];
    for (let i = 0; i < 4; i += 1) {
      const child = h.forks.at(-1);
      if (i === 1) child.emit('message', { type: 'failed', message: 'Cannot listen: port taken' });
      child.emit('exit', 1);
      expect(h.statuses.at(-1).state).toBe('restarting');
      if (i === 1) expect(h.statuses.at(-1).reason).toBe('Cannot listen: port taken');
      else expect(h.statuses.at(-1).reason).toBe('it exited with code 1');
      delays.push(h.fire());
    }
    expect(delays).toEqual([100, 200, 400, 400]);
    expect(h.forks).toHaveLength(5);
    expect(h.statuses.filter((s) => s.state === 'restarting').map((s) => s.attempt)).toEqual([1, 2, 3, 4]);
    h.forks.at(-1).emit('message', { type: 'ready' });
    expect(h.statuses.at(-1)).toMatchObject({ state: 'running', restarted: true });
  });

  test('a server that ran long enough starts the backoff over; messages from an old child are ignored', () => {
    const h = harness({ delays: [100, 200, 400], stableMs: 1000 });
    h.proc.start();
    h.forks[0].emit('exit', 1);
    h.fire();
    h.forks[1].emit('exit', 1);
    expect(h.fire()).toBe(200);
    h.advance(5000);
    h.forks[2].emit('exit', 1);
    expect(h.fire()).toBe(100);
    const before = h.statuses.length;
    h.forks[0].emit('message', { type: 'ready' });
    h.forks[0].emit('exit', 0);
    expect(h.statuses).toHaveLength(before);
  });

  test('stop() asks the child to stop and never restarts it', async () => {
    const h = harness();
    h.proc.start();
    const stopped = h.proc.stop();
    expect(h.forks[0].messages.at(-1)).toEqual({ type: 'stop' });
    h.forks[0].emit('exit', 0);
    await stopped;
    expect(h.statuses.at(-1).state).toBe('stopped');
    expect(h.timers.filter((t) => !t.cleared && !t.fired && t.ms !== 3000)).toHaveLength(0);
    expect(h.forks).toHaveLength(1);
  });

  test('the child entry starts a real show server and reports its URLs and settings changes', async () => {
    const posted = [];
    const exits = [];
    const listeners = [];
    const port = { on: (event, fn) => listeners.push(fn), postMessage: (m) => posted.push(m) };
    runServerChild({ port, exit: (code) => exits.push(code) });
    const settings = { ...sanitizeSettings({}).settings, recentScores: [] };
    listeners[0]({
      data: { type: 'start', settings, overrides: { token: 'child-token', port: 0, controlPort: 0, host: '127.0.0.1' }, scoresDir: SCORES },
    });
    const ready = await waitFor(() => posted.find((m) => m.type === 'ready' || m.type === 'failed'), 10_000, 'ready');
    expect(ready.type).toBe('ready');
    expect(ready.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.stringify(ready)).not.toContain('child-token');
    const auth = { authorization: 'Bearer child-token', 'content-type': 'application/json' };
    const res = await fetch(`${ready.controlUrl}/api/osc/targets`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ host: '127.0.0.1', port: 9 }),
    });
    expect(res.status).toBe(200);
    expect(posted.find((m) => m.type === 'settings')).toEqual({
      type: 'settings',
      change: { oscTargets: [{ host: '127.0.0.1', port: 9 }] },
    });
    const consoleInfo = await (await fetch(`${ready.controlUrl}/api/console`, { headers: auth })).json();
    expect(consoleInfo.mode).toBe('electron');
    listeners[0]({ data: { type: 'stop' } });
    await waitFor(() => exits.length > 0, 5000, 'exit');
    expect(exits).toEqual([0]);
  });

  test('the child keeps the show position in the state folder it is given; a clean stop clears it', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'tutti-child-state-'));
    const posted = [];
    const exits = [];
    const listeners = [];
    runServerChild({
      port: { on: (event, fn) => listeners.push(fn), postMessage: (m) => posted.push(m) },
      exit: (code) => exits.push(code),
    });
    const settings = { ...sanitizeSettings({}).settings, recentScores: [] };
    listeners[0]({
      data: {
        type: 'start',
        settings,
        overrides: { token: 'child-token', port: 0, controlPort: 0, host: '127.0.0.1' },
        scoresDir: SCORES,
        stateDir,
      },
    });
    const ready = await waitFor(() => posted.find((m) => m.type === 'ready' || m.type === 'failed'), 10_000, 'ready');
    const auth = { authorization: 'Bearer child-token', 'content-type': 'application/json' };
    await fetch(`${ready.controlUrl}/api/transport`, { method: 'POST', headers: auth, body: JSON.stringify({ action: 'seek', bar: 6 }) });
    const file = join(stateDir, 'show-state.json');
    const saved = await waitFor(
      async () => {
        const point = JSON.parse(await readFile(file, 'utf8').catch(() => 'null'))?.point;
        return point && point.index > 0 ? point : null;
      },
      5000,
      'position saved',
    );
    expect(saved.transport).toBe('stopped');
    listeners[0]({ data: { type: 'stop' } });
    await waitFor(() => exits.length > 0, 5000, 'exit');
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
    await rm(stateDir, { recursive: true, force: true });
  });
});

describe('the desktop app with a fake electron', () => {
  let dir;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tutti-app-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const paths = { preload: PRELOAD, serverEntry: '/app/main/server-child.js', scoresDir: SCORES };

  test('a second instance quits at once and sets nothing up', async () => {
    const fake = createFakeElectron({ userData: dir, singleInstance: false });
    const desktop = createDesktopApp({ electron: fake.electron, paths });
    expect(desktop.main()).toBe(false);
    expect(fake.calls.quit).toBe(1);
    expect(fake.forks).toHaveLength(0);
    expect(fake.handlers.size).toBe(0);
  });

  test('starts the server process, opens the hardened console on its URL, restarts it, persists settings', async () => {
    const fake = createFakeElectron({ userData: dir });
    const warnings = [];
    const desktop = createDesktopApp({
      electron: fake.electron,
      paths,
      token: 'secret-token-123',
      log: { warn: (m) => warnings.push(m) },
      serverOptions: { delays: [5] },
    });
    await desktop.main();
    expect([...fake.handlers.keys()].sort()).toEqual(Object.values(Invoke).sort());
    expect(fake.calls.menus).toHaveLength(1);
    expect(typeof fake.session.headersReceived).toBe('function');
    expect(fake.forks).toHaveLength(1);
    const start = fake.forks[0].messages[0];
    expect(start).toMatchObject({ type: 'start', overrides: { token: 'secret-token-123' }, scoresDir: SCORES, stateDir: dir });

    fake.forks[0].emit('message', {
      type: 'ready',
      controlUrl: 'http://127.0.0.1:40001',
      audienceUrl: 'http://127.0.0.1:40000',
      audiencePort: 40000,
      controlPort: 40001,
      notices: ['Port 8080 is in use: …'],
    });
    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0];
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: PRELOAD });
    expect(win.loaded).toEqual(['http://127.0.0.1:40001/?token=secret-token-123']);
    expect(warnings).toEqual(['Port 8080 is in use: …']);
    // IPC from the console page is accepted now that its origin is known.
    expect(await fake.handlers.get(Invoke.APP_INFO)(trusted('http://127.0.0.1:40001/'))).toMatchObject({ version: '0.1.0-test' });

    // Second launch of the app: the existing window comes forward.
    win.minimized = true;
    fake.electron.app.emit('second-instance', {}, []);
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(1);

    // A score loaded in the console is remembered (file + OS recent documents + menu).
    fake.forks[0].emit('message', { type: 'settings', change: { scorePath: '/shows/piece.score.json' } });
    const saved = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'));
    expect(saved.recentScores).toEqual(['/shows/piece.score.json']);
    expect(fake.calls.recentDocuments).toEqual(['/shows/piece.score.json']);
    expect(fake.calls.menus).toHaveLength(2);

    // The server dies: the console is told, and a new one starts on the same ports with the same token.
    fake.forks[0].emit('exit', 9);
    const statusMessages = win.webContents.sent.filter((m) => m.channel === Events.SERVER_STATUS).map((m) => m.payload);
    expect(statusMessages.at(-1)).toMatchObject({ state: 'restarting', attempt: 1, retryInMs: 5, reason: 'it exited with code 9' });
    await waitFor(() => fake.forks.length === 2, 2000, 'restart');
    expect(fake.forks[1].messages[0].overrides).toEqual({ token: 'secret-token-123', port: 40000, controlPort: 40001 });
    expect(fake.forks[1].messages[0].settings.recentScores).toEqual(['/shows/piece.score.json']);
    fake.forks[1].emit('message', {
      type: 'ready',
      controlUrl: 'http://127.0.0.1:40001',
      audienceUrl: 'http://127.0.0.1:40000',
      audiencePort: 40000,
      controlPort: 40001,
    });
    expect(win.loaded).toHaveLength(1); // same URL: the page just reconnects
    const last = win.webContents.sent.at(-1);
    expect(last).toMatchObject({ channel: Events.SERVER_STATUS, payload: { state: 'running', restarted: true } });
    expect(JSON.stringify(win.webContents.sent)).not.toContain('secret-token-123');

    // The menu's Open Recent sends a load command to the console.
    const menu = fake.calls.menus.at(-1).template;
    const recent = menu.find((m) => m.label === 'File').submenu.find((m) => m.label === 'Open Recent').submenu[0];
    recent.click();
    expect(win.webContents.sent.at(-1)).toEqual({
      channel: Events.MENU_COMMAND,
      payload: { command: 'load-score', path: '/shows/piece.score.json' },
    });

    // The open-score dialog starts in the last score's folder.
    fake.electron.dialog.nextResult = { canceled: false, filePaths: ['/shows/other.score.json'] };
    expect(await fake.handlers.get(Invoke.OPEN_SCORE_DIALOG)(trusted('http://127.0.0.1:40001/'))).toBe('/shows/other.score.json');
    expect(fake.calls.dialogs[0]).toMatchObject({ defaultPath: '/shows', properties: ['openFile'] });

    // Quitting stops the server first, then quits.
    const quit = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    fake.electron.app.emit('before-quit', quit);
    expect(quit.prevented).toBe(true);
    expect(fake.forks[1].messages.at(-1)).toEqual({ type: 'stop' });
    fake.forks[1].emit('exit', 0);
    await waitFor(() => fake.calls.quit === 1, 2000, 'quit after the server stopped');
    expect(fake.forks).toHaveLength(2);
    const file = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(file).not.toContain('secret-token-123');
  });
});

describe('settings and menus', () => {
  test('settings keep only known, well-formed keys; secrets never reach the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tutti-settings-'));
    try {
      await writeFile(
        join(dir, 'settings.json'),
        JSON.stringify({
          audiencePort: 9000,
          controlPort: 'x',
          token: 'leak',
          edgeToken: 'leak2',
          oscTargets: [{ host: 'a', port: 1 }],
          recentScores: ['/a'],
        }),
      );
      const warnings = [];
      const store = createSettingsStore({ dir, warn: (m) => warnings.push(m) });
      const s = store.load();
      expect(s.audiencePort).toBe(9000);
      expect(s.controlPort).toBe(8081);
      expect(s.oscTargets).toEqual([{ host: 'a', port: 1 }]);
      expect(warnings.join()).toMatch(/ignored controlPort, token, edgeToken/);
      store.update({ edgeUrl: 'https://edge.example', scorePath: '/b' });
      store.save({ ...store.get(), token: 'leak3' });
      const text = await readFile(store.path, 'utf8');
      expect(text).not.toMatch(/leak/);
      expect(JSON.parse(text)).toMatchObject({ edgeUrl: 'https://edge.example', recentScores: ['/b', '/a'] });

      await writeFile(store.path, '{ not json');
      expect(store.load().recentScores).toEqual([]);
      expect(warnings.at(-1)).toMatch(/not valid JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('recent scores: newest first, no duplicates, at most ten; config dir follows XDG', () => {
    let s = sanitizeSettings({}).settings;
    for (let i = 0; i < 12; i += 1) s = applySettingsChange(s, { scorePath: `/s${i}` });
    s = applySettingsChange(s, { scorePath: '/s5' });
    expect(s.recentScores[0]).toBe('/s5');
    expect(s.recentScores).toHaveLength(10);
    expect(new Set(s.recentScores).size).toBe(10);
    expect(applySettingsChange(s, { edgeUrl: 'javascript:1' }).edgeUrl).toBe(s.edgeUrl);
    expect(browserConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe(join('/x', 'tutti'));
    expect(browserConfigDir({}, 'linux', '/home/u')).toBe(join('/home/u', '.config', 'tutti'));
  });

  test('the menu offers open, recent scores and transport commands', () => {
    const sent = [];
    const template = menuTemplate({
      platform: 'linux',
      appName: 'Tutti',
      recentScores: [],
      isPackaged: true,
      command: (c) => sent.push(c),
      clearRecent: () => {},
      openAudience: () => {},
      showSettings: () => {},
    });
    const file = template.find((m) => m.label === 'File').submenu;
    file.find((m) => m.label === 'Open Score…').click();
    expect(file.find((m) => m.label === 'Open Recent').submenu[0]).toMatchObject({ enabled: false });
    const transport = template.find((m) => m.label === 'Transport').submenu;
    transport.forEach((item) => item.click());
    expect(sent.map((c) => c.command)).toEqual(['open-score', 'play-pause', 'stop', 'jump']);
    expect(sent.every((c) => MenuCommands.includes(c.command))).toBe(true);
    expect(JSON.stringify(template)).not.toContain('toggleDevTools');
  });
});
