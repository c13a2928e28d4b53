// The desktop app during a run: its command line and the files the OS opens with it, keeping the
// laptop awake while the show plays, and the edge token kept with safeStorage.
//
// Electron cannot run here: `electron` is test/app/support/fake-electron.js, the ONLY fake (its
// powerSaveBlocker records start/stop; its safeStorage is a reversible transformation standing in
// for the OS keychain). The show server is real: the fake utilityProcess.fork runs the real entry
// (app/main/server-child.js) in this process, and the console API is reached over real sockets.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFakeElectron } from './support/fake-electron.js';
import { createDesktopApp } from '../../app/main/app.js';
import { runServerChild } from '../../app/main/server-child.js';
import { parseDesktopArgs, userArgs } from '../../app/main/launch-args.js';
import { BLOCKER_TYPE } from '../../app/main/keep-awake.js';
import { TOKEN_NOT_SAVED } from '../../app/main/edge-token-store.js';
import { Events } from '../../app/main/ipc-channels.js';
import { waitFor } from '../support/clients.js';

const PRELOAD = fileURLToPath(new URL('../../app/preload/index.cjs', import.meta.url));
const SCORES = fileURLToPath(new URL('../../scores/', import.meta.url));
const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));
const paths = { preload: PRELOAD, serverEntry: '/app/main/server-child.js', scoresDir: SCORES };
/** Loopback, free ports: what `npm start -- …` would pass; the app must honour them. */
const LOOPBACK_FLAGS = ['--port', '0', '--control-port', '0', '--host', '127.0.0.1'];

let dir;
const apps = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tutti-desktop-'));
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.quit();
  await rm(dir, { recursive: true, force: true });
});

/** utilityProcess.fork runs the real server entry in this process, messages through the fake child. */
function runServersInProcess(fake) {
  const fork = fake.electron.utilityProcess.fork;
  fake.electron.utilityProcess.fork = (entry, args, options) => {
    const child = fork(entry, args, options);
    const toChild = [];
    const port = { on: (_event, fn) => toChild.push(fn), postMessage: (message) => child.emit('message', message) };
    runServerChild({ port, exit: (code) => setImmediate(() => child.emit('exit', code)) });
    child.postMessage = (message) => {
      child.messages.push(message);
      for (const fn of toChild) fn({ data: message });
    };
    return child;
  };
}

/**
 * Start the desktop app as `electron <folder> …args` with a real show server.
 * @param {string[]} args
 * @param {{ encryption?: 'available' | 'unavailable' | 'basic_text', beforeReady?: (fake: any) => void }} [options]
 */
async function startApp(args, { encryption, beforeReady } = {}) {
  const fake = createFakeElectron({ userData: dir, encryption });
  runServersInProcess(fake);
  const warnings = [];
  const desktop = createDesktopApp({
    electron: fake.electron,
    paths,
    log: { warn: (m) => warnings.push(m) },
    launch: { argv: ['/opt/electron', APP_DIR, ...args], defaultApp: true, cwd: dir, env: {} },
  });
  const ready = desktop.main();
  beforeReady?.(fake);
  await ready;
  await waitFor(
    () => desktop.state().lastStatus?.state === 'running' || desktop.state().lastStatus?.state === 'restarting',
    15_000,
    'the show server',
  );
  expect(desktop.state().lastStatus.state).toBe('running');
  const win = fake.windows[0];
  const pageUrl = new URL(win.loaded[0]);
  const token = pageUrl.searchParams.get('token');
  const base = pageUrl.origin;
  const api = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const run = {
    fake,
    desktop,
    warnings,
    win,
    base,
    token,
    api,
    async quit() {
      if (!desktop.server().running()) return;
      const quit = { preventDefault() {} };
      fake.electron.app.emit('before-quit', quit);
      await waitFor(() => !desktop.server().running(), 5000, 'the server to stop');
    },
  };
  apps.push(run);
  return run;
}

describe('the command line and files opened with the app', () => {
  test('npm start flags reach the show server (ports, host, score, token)', async () => {
    const run = await startApp([...LOOPBACK_FLAGS, '--score', join(SCORES, 'tidal-lines.score.json'), '--token', 'flag-token-1234567890']);
    expect(run.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.base).not.toBe('http://127.0.0.1:8081');
    expect(run.token).toBe('flag-token-1234567890');
    const info = await run.api('GET', '/api/console');
    expect(info.body.score.id).toBe('tidal-lines');
    expect(info.body.audience.port).not.toBe(8080);
    expect(info.body.audience.lanAddress).toBeNull(); // bound to 127.0.0.1: not on the Wi-Fi
    expect((await fetch(`${info.body.audience.localUrl}healthz`)).status).toBe(200);
    expect(run.fake.forks[0].messages[0].overrides).toMatchObject({
      port: 0,
      controlPort: 0,
      host: '127.0.0.1',
      token: 'flag-token-1234567890',
    });
    // The desktop app records its shows in its user-data folder too (docs/how-to/record-and-replay.md#the-performance-record).
    const records = await run.api('GET', '/api/records');
    expect(records.status).toBe(200);
    expect(records.body.dir).toBe(join(dir, 'records'));
    expect(records.body.records.map((r) => r.score.id)).toContain('tidal-lines');
  });

  test('a score opened from the OS before start-up is the one loaded; later ones go to the console', async () => {
    const first = join(SCORES, 'tidal-lines.score.json');
    const run = await startApp(LOOPBACK_FLAGS, {
      beforeReady: (fake) => {
        let prevented = false;
        fake.electron.app.emit(
          'open-file',
          {
            preventDefault: () => {
              prevented = true;
            },
          },
          first,
        );
        expect(prevented).toBe(true);
      },
    });
    expect((await run.api('GET', '/api/console')).body.score.id).toBe('tidal-lines');
    const commands = () => run.win.webContents.sent.filter((m) => m.channel === Events.MENU_COMMAND).map((m) => m.payload);

    // Windows/Linux: a second instance started with a (relative) score file.
    run.win.minimized = true;
    run.fake.electron.app.emit('second-instance', {}, ['/opt/electron', APP_DIR, '--no-sandbox', 'piece.score.json'], '/shows');
    expect(commands()).toEqual([{ command: 'load-score', path: join('/shows', 'piece.score.json') }]);
    expect(run.win.minimized).toBe(false);

    // macOS, while the page is (re)loading: delivered once it has loaded.
    run.win.webContents.loading = true;
    run.fake.electron.app.emit('open-file', { preventDefault() {} }, '/shows/other.score.json');
    expect(commands()).toHaveLength(1);
    run.win.webContents.loading = false;
    run.win.webContents.emit('did-finish-load');
    expect(commands().at(-1)).toEqual({ command: 'load-score', path: '/shows/other.score.json' });
  });

  test("Electron's own switches are left alone; bad flag values are reported, not fatal", () => {
    expect(userArgs(['/opt/Tutti', '--port', '9000'], false)).toEqual(['--port', '9000']);
    expect(userArgs(['/opt/electron', '/src/tutti', '--port', '9000'], true)).toEqual(['--port', '9000']);
    const parsed = parseDesktopArgs(
      ['--no-sandbox', '--port', '9000', '--osc', '127.0.0.1:9001', '--autoplay', 'scores/x.score.json', '--max-clients', 'lots'],
      { cwd: '/shows' },
    );
    expect(parsed.overrides).toEqual({
      port: 9000,
      oscTargets: [{ host: '127.0.0.1', port: 9001 }],
      autoplay: true,
      scorePath: join('/shows', 'scores/x.score.json'),
    });
    expect(parsed.skipped).toEqual(['--no-sandbox']);
    expect(parsed.errors).toEqual(['--max-clients must be a positive whole number, not "lots"']);
    // TUTTI_* variables count, as for `tutti serve`.
    expect(parseDesktopArgs([], { env: { TUTTI_CONTROL_PORT: '9100' } }).overrides).toEqual({ controlPort: 9100 });
  });

  test('a bad flag value is reported and the app starts with the rest', async () => {
    const run = await startApp([...LOOPBACK_FLAGS, '--max-clients', 'lots']);
    expect(run.warnings).toContain('command line: --max-clients must be a positive whole number, not "lots" (ignored)');
  });
});

describe('the laptop does not sleep mid-concert', () => {
  test('sleep is prevented while the show plays and allowed again when it pauses, stops or the app quits', async () => {
    const run = await startApp(LOOPBACK_FLAGS);
    const { calls } = run.fake;
    expect(calls.blockers).toEqual([]);
    expect(run.desktop.state().keepingAwake).toBe(false);

    expect((await run.api('POST', '/api/transport', { action: 'play' })).status).toBe(200);
    await waitFor(() => run.desktop.state().keepingAwake, 3000, 'the blocker');
    expect(calls.blockers).toEqual([{ start: BLOCKER_TYPE, id: 1 }]);
    expect(BLOCKER_TYPE).toMatch(/^prevent-(display-sleep|app-suspension)$/);

    await run.api('POST', '/api/transport', { action: 'pause' });
    await waitFor(() => !run.desktop.state().keepingAwake, 3000, 'release on pause');
    expect(calls.blockers.at(-1)).toEqual({ stop: 1 });

    await run.api('POST', '/api/transport', { action: 'play' });
    await waitFor(() => run.desktop.state().keepingAwake, 3000, 'the blocker again');
    await run.api('POST', '/api/transport', { action: 'stop' });
    await waitFor(() => !run.desktop.state().keepingAwake, 3000, 'release on stop');

    await run.api('POST', '/api/transport', { action: 'play' });
    await waitFor(() => run.desktop.state().keepingAwake, 3000, 'the blocker a third time');
    await run.quit();
    expect(run.desktop.state().keepingAwake).toBe(false);
    expect(calls.blockers.filter((c) => c.start).length).toBe(calls.blockers.filter((c) => c.stop).length);
  });

  test('a show that is already playing when the server (re)starts keeps the laptop awake', async () => {
    const run = await startApp([...LOOPBACK_FLAGS, '--autoplay']);
    expect(run.desktop.state().keepingAwake).toBe(true);
    expect(run.fake.calls.blockers).toEqual([{ start: BLOCKER_TYPE, id: 1 }]);
  });
});

describe('the edge token across restarts', () => {
  const EDGE = 'http://127.0.0.1:9';

  test('kept encrypted in settings.json with safeStorage, and the mirror is back on after a restart', async () => {
    const first = await startApp(LOOPBACK_FLAGS);
    expect((await first.api('POST', '/api/edge', { url: EDGE, token: 'edge-secret-token-1' })).status).toBe(200);
    const settingsPath = join(dir, 'settings.json');
    await waitFor(async () => JSON.parse(await readFile(settingsPath, 'utf8')).edgeTokenEncrypted, 3000, 'the saved token');
    const text = await readFile(settingsPath, 'utf8');
    expect(text).not.toContain('edge-secret-token-1');
    expect(text).not.toContain(Buffer.from('edge-secret-token-1').toString('base64'));
    expect(JSON.parse(text)).toMatchObject({ edgeUrl: EDGE, edgeTokenEncrypted: expect.any(String) });
    await first.quit();
    apps.splice(apps.indexOf(first), 1);

    const second = await startApp(LOOPBACK_FLAGS);
    expect(second.fake.forks[0].messages[0].overrides).toMatchObject({ edgeUrl: EDGE, edgeToken: 'edge-secret-token-1' });
    const info = await second.api('GET', '/api/console');
    expect(info.body.edge).toMatchObject({ enabled: true, publicUrl: EDGE });
    expect(JSON.stringify(info.body)).not.toContain('edge-secret-token-1');

    // Switching the mirror off forgets URL and token.
    await second.api('DELETE', '/api/edge');
    await waitFor(async () => JSON.parse(await readFile(settingsPath, 'utf8')).edgeUrl === null, 3000, 'forgotten');
    expect(JSON.parse(await readFile(settingsPath, 'utf8')).edgeTokenEncrypted).toBeNull();
  });

  test.each(['unavailable', 'basic_text'])('safeStorage %s: the token is not stored, and the console says so', async (encryption) => {
    const run = await startApp(LOOPBACK_FLAGS, { encryption });
    await run.api('POST', '/api/edge', { url: EDGE, token: 'edge-secret-token-2' });
    await waitFor(async () => JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')).edgeUrl === EDGE, 3000, 'the saved URL');
    const saved = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'));
    expect(saved.edgeTokenEncrypted).toBeNull();
    expect(JSON.stringify(saved)).not.toContain('edge-secret-token-2');
    // The console's Log panel shows it (the server's log), and main's log too.
    await waitFor(
      async () => (await run.api('GET', '/api/console')).body.log.some((e) => e.msg === TOKEN_NOT_SAVED),
      3000,
      'the notice in the console log',
    );
    expect(run.warnings).toContain(TOKEN_NOT_SAVED);
    await run.quit();
    apps.splice(apps.indexOf(run), 1);

    const again = await startApp(LOOPBACK_FLAGS, { encryption });
    expect(again.fake.forks[0].messages[0].overrides.edgeToken).toBeUndefined();
  });
});
