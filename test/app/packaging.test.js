// The desktop app as electron-builder packages it. electron-builder.yml is run for real
// (`--dir`, this platform) by app/scripts/build-unpacked.js; then the show server is started
// from the produced app.asar and reached over real sockets.
//
// What is NOT real here: when this machine has no Electron binary (none of this project's
// machines can download one), the build uses a STAND-IN Electron distribution (a shell script
// named `electron`) and skips the fuses. Everything taken from the project — app.asar, its
// production node_modules, the extra resources — is real. Plain Node cannot read an asar
// (Electron's fs patches can), so the archive is extracted with @electron/asar, and the utility
// process entry is started by plain Node with `process.parentPort` bridged to Node's IPC channel.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import asar from '@electron/asar';
import { defaultSettings } from '../../app/main/settings-store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = readFileSync(`${root}electron-builder.yml`, 'utf8');

test('the build resources hold a 1024×1024 PNG icon (source of the .icns, .ico and Linux icons)', () => {
  const dir = /^\s+buildResources:\s*(\S+)/m.exec(config)?.[1];
  expect(dir).toBe('app/build');
  const png = readFileSync(`${root}${dir}/icon.png`);
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // PNG signature
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
});

describe('the unpacked app built by electron-builder', () => {
  let work;
  let built;
  let extracted;
  let files;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'tutti-packaging-'));
    const output = await run(process.execPath, [join(root, 'app/scripts/build-unpacked.js'), '--out', join(work, 'out')], 50_000);
    built = JSON.parse(output.trim().split('\n').at(-1));
    files = asar.listPackage(built.asar, { isPack: false }).map((p) => p.replaceAll('\\', '/'));
    extracted = join(work, 'app');
    asar.extractAll(built.asar, extracted);
  }, 60_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('ships the prebuilt audience app and the scores, but not the builder or esbuild', () => {
    if (built.standIn)
      console.log('packaging test: built with a stand-in Electron distribution (no Electron binary on this machine); fuses not flipped');
    expect(files).toEqual(
      expect.arrayContaining([
        '/package.json',
        '/app/main/server-child.js',
        '/web/console/index.html',
        '/dist/audience/index.html',
        '/dist/audience/manifest.json',
      ]),
    );
    // The builder stays out; the pages' sources ship for the console editor's phone and part
    // previews, which run the audience and part pages' view code as it is (local-server/src/console/console-ui.js).
    expect(files.filter((p) => p.startsWith('/web/audience/') && !/^\/web\/audience\/(src|part|shared)(\/|$)/.test(p))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        '/web/audience/src/view.js',
        '/web/audience/src/index.html',
        '/web/audience/part/part-view.js',
        '/web/audience/part/index.html',
        '/web/audience/shared/notation-view.js',
      ]),
    );
    expect(files.filter((p) => /\/node_modules\/(@esbuild|esbuild|electron|electron-builder)(\/|$)/.test(p))).toEqual([]);
    expect(existsSync(join(built.resourcesDir, 'scores', 'demo.score.json'))).toBe(true);
    expect(existsSync(join(built.resourcesDir, 'scores', 'broken'))).toBe(false);
  });

  test('the show server starts from app.asar and serves /healthz, the audience page and the console', async () => {
    // What Electron's utilityProcess gives the entry: process.parentPort with { data } messages.
    const bridge = `
      process.parentPort = {
        on: (event, fn) => process.on('message', (data) => fn({ data })),
        postMessage: (message) => process.send(message),
      };
      await import(${JSON.stringify(pathToFileURL(join(extracted, 'app/main/server-child.js')).href)});`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', bridge], { cwd: work, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const ready = new Promise((resolve, reject) => {
        child.on('message', (m) => {
          if (m?.type === 'ready' || m?.type === 'failed') resolve(m);
        });
        exited.then((code) => reject(new Error(`the server entry exited (${code}) before it was ready:\n${stderr}`)));
      });
      child.send({
        type: 'start',
        settings: defaultSettings(),
        overrides: { token: 'packaged-token', port: 0, controlPort: 0, host: '127.0.0.1' },
        scoresDir: join(built.resourcesDir, 'scores'),
      });
      const info = await ready;
      expect(info).toMatchObject({ type: 'ready', scorePath: join(built.resourcesDir, 'scores', 'demo.score.json') });

      const health = await fetch(`${info.audienceUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true });
      const audiencePage = await fetch(`${info.audienceUrl}/`);
      expect(audiencePage.status).toBe(200);
      expect(audiencePage.headers.get('content-type')).toMatch(/text\/html/);

      const consolePage = await fetch(`${info.controlUrl}/?token=packaged-token`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toContain('/console/main.js');
      // The score editor's modules and phone preview come from app.asar too.
      for (const path of [
        '/core/score/validate.js',
        '/console/editor/phone.html',
        '/console/audience/view.js',
        '/console/editor/part.html',
        '/console/web-audience/part/part-view.js',
        '/console/web-audience/shared/notation-source.js',
      ])
        expect([path, (await fetch(`${info.controlUrl}${path}`)).status]).toEqual([path, 200]);
      const api = await fetch(`${info.controlUrl}/api/console`, { headers: { authorization: 'Bearer packaged-token' } });
      expect(await api.json()).toMatchObject({ mode: 'electron', score: { id: 'demo' } });

      child.send({ type: 'stop' });
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});

/** Run a command; resolves its stdout, rejects with its output when it fails or takes too long. */
function run(command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${args.join(' ')} failed (${code}):\n${out}\n${err}`));
    });
  });
}
