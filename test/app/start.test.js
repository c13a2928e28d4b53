// `npm start` where no Electron binary can run (this machine): one clear line saying so, then
// the same console served in the browser on the loopback control listener, URL with token
// printed; settings persist in $XDG_CONFIG_HOME/tutti; taken ports fall back to free ones.
// Real processes, real sockets; nothing faked.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { findElectronBinary } from '../../app/electron-binary.js';

const ELECTRON_PACKAGE = join(createRequire(import.meta.url).resolve('electron/package.json'), '..');
const START = fileURLToPath(new URL('../../app/start.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let home;
const running = new Set();

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'tutti-start-'));
});
afterEach(async () => {
  for (const run of running) await run.stop();
  await rm(home, { recursive: true, force: true });
});

/** Start `node app/start.js …`; resolves once its start-up lines are printed (or the process ends). */
function start(args, extraEnv = {}) {
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
  for (const key of Object.keys(env)) if (key.startsWith('TUTTI_') || key.startsWith('ELECTRON_')) delete env[key];
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [START, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const run = {
    child,
    exited,
    out: () => stdout,
    err: () => stderr,
    async stop() {
      running.delete(run);
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(run);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no console URL within 15 s:\n${stdout}\n${stderr}`)), 15_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('Stop with Ctrl+C.')) {
        clearTimeout(timer);
        resolve(run);
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    exited.then(() => {
      clearTimeout(timer);
      resolve(run);
    });
  });
}

const consoleUrl = (run) => /(http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(run.out());

test('says in one line that Electron cannot run, then serves the console with its token; settings persist', async () => {
  const first = await start(['--port', '0', '--control-port', '0', '--host', '127.0.0.1']);
  const lines = first.out().split('\n');
  expect(lines[0]).toMatch(/^Electron cannot run here \(.+\): serving the same console in your browser instead\.$/);
  expect(lines.filter((l) => /electron/i.test(l))).toHaveLength(1);
  // The electron package is installed but its binary is not, and npm start must not fetch it
  // (requiring the package would: it has no install script since Electron 42).
  if (!findElectronBinary({ env: {} }).binary) {
    expect(lines[0]).toContain('the Electron binary has not been downloaded');
    expect(`${first.out()}${first.err()}`).not.toMatch(/Downloading|install-electron --no|failed to install/i);
    expect(existsSync(join(ELECTRON_PACKAGE, 'path.txt'))).toBe(false);
  }
  const [, base, token] = consoleUrl(first);

  const page = await fetch(`${base}/?token=${token}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toContain('/console/main.js');
  expect((await fetch(`${base}/api/console`)).status).toBe(401);
  const auth = { authorization: `Bearer ${decodeURIComponent(token)}` };
  const info = await (await fetch(`${base}/api/console`, { headers: auth })).json();
  expect(info.mode).toBe('browser');
  expect(info.settingsPath).toBe(join(home, 'config', 'tutti', 'settings.json'));
  expect(info.score.id).toBe('demo');

  // A change made in the console is saved, without the token, and comes back on the next start.
  const added = await fetch(`${base}/api/osc/targets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ host: '127.0.0.1', port: 9123 }),
  });
  expect(added.status).toBe(200);
  const saved = await readFile(info.settingsPath, 'utf8');
  expect(JSON.parse(saved).oscTargets).toEqual([{ host: '127.0.0.1', port: 9123 }]);
  expect(saved).not.toContain(decodeURIComponent(token));
  await first.stop();

  const second = await start(['--port', '0', '--control-port', '0', '--host', '127.0.0.1']);
  const [, base2, token2] = consoleUrl(second);
  expect(token2).not.toBe(token);
  const again = await (await fetch(`${base2}/api/console`, { headers: { authorization: `Bearer ${decodeURIComponent(token2)}` } })).json();
  expect(again.osc.targets.map((t) => `${t.host}:${t.port}`)).toEqual(['127.0.0.1:9123']);
  await second.stop();
});

test('a taken port falls back to a free one, and says so', async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const taken = /** @type {net.AddressInfo} */ (blocker.address()).port;
  try {
    const run = await start(['--port', String(taken), '--control-port', '0', '--host', '127.0.0.1']);
    expect(run.err()).toContain(`warn: Port ${taken} is in use: the audience listener takes a free port instead.`);
    const audience = /Audience on this machine: (http:\/\/127\.0\.0\.1:(\d+))\//.exec(run.out());
    expect(Number(audience[2])).not.toBe(taken);
    expect((await fetch(`${audience[1]}/healthz`)).status).toBe(200);
    // The console page says so too: the notice is in the log its Log panel shows.
    const [, base, token] = consoleUrl(run);
    const { entries } = await (
      await fetch(`${base}/api/log`, { headers: { authorization: `Bearer ${decodeURIComponent(token)}` } })
    ).json();
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: `Port ${taken} is in use: the audience listener takes a free port instead.` }),
    );
    await run.stop();
  } finally {
    blocker.close();
  }
});

test('a bad flag stops with one clear message and a non-zero exit code', async () => {
  const run = await start(['--prot', '0']);
  expect(await run.exited).toBe(2);
  expect(run.err()).toMatch(/unknown flag --prot \(did you mean --port\?\)/);
  expect(run.err()).not.toMatch(/\n\s+at /); // no stack trace
});

describe('the Electron binary', () => {
  /** An unpacked "Electron" that records its arguments and exits at once, as one without a display would. */
  async function stubDistribution(exitCode) {
    const dist = join(home, 'electron-dist');
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'electron'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(home, 'electron-args.txt')}"\nexit ${exitCode}\n`);
    await chmod(join(dist, 'electron'), 0o755);
    return dist;
  }

  test('is looked for without loading the electron package, and never downloaded', async () => {
    const pkg = join(home, 'electron');
    await mkdir(join(pkg, 'dist'), { recursive: true });
    expect(findElectronBinary({ env: {}, packageDir: pkg })).toMatchObject({
      binary: null,
      reason: expect.stringContaining('npx install-electron'),
    });
    await writeFile(join(pkg, 'path.txt'), 'electron');
    expect(findElectronBinary({ env: {}, packageDir: pkg })).toMatchObject({ binary: null, reason: expect.stringContaining('missing') });
    await writeFile(join(pkg, 'dist', 'electron'), '');
    expect(findElectronBinary({ env: {}, packageDir: pkg })).toEqual({
      binary: join(pkg, 'dist', 'electron'),
      distDir: join(pkg, 'dist'),
      reason: '',
    });
    expect(findElectronBinary({ env: { TUTTI_NO_ELECTRON: '1' }, packageDir: pkg }).binary).toBeNull();
  });

  (process.platform === 'win32' ? test.skip : test)(
    'one that exits at once gets the flags, then the browser console takes over in one line',
    async () => {
      const dist = await stubDistribution(1);
      const run = await start(['--port', '0', '--control-port', '0', '--host', '127.0.0.1'], { ELECTRON_OVERRIDE_DIST_PATH: dist });
      const args = (await readFile(join(home, 'electron-args.txt'), 'utf8')).trim().split('\n');
      expect(args).toEqual([ROOT, '--port', '0', '--control-port', '0', '--host', '127.0.0.1']);
      const lines = run.out().split('\n');
      expect(lines[0]).toBe(
        'Electron cannot run here (the Electron binary exited at once — no display?): serving the same console in your browser instead.',
      );
      expect(consoleUrl(run)).not.toBeNull();
      await run.stop();
    },
  );
});
