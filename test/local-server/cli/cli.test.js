// `tutti` as a user runs it: a real process, its exit code and what it prints.
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureScore } from '../../../scripts/state-sizes.js';
import { AHEAD_CHUNK_BYTES } from '#core/engine/ahead.js';
import { loadScoreFile } from '../../../local-server/src/score/score-file.js';
import { spawnTutti } from '../../support/serve-process.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

// Crash resume and the log file go to the state folder: never the real one in a test.
const stateHome = mkdtempSync(path.join(os.tmpdir(), 'tutti-cli-state-'));
afterAll(() => rmSync(stateHome, { recursive: true, force: true }));

function run(args, { env = {}, untilOutput, timeoutMs = 15000 } = {}) {
  return new Promise((resolve) => {
    const tutti = spawnTutti(args, { env: { ...process.env, XDG_STATE_HOME: stateHome, ...env } });
    const { child } = tutti;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.on('data', () => {
      if (untilOutput && untilOutput.test(tutti.stdout()))
        resolve({ child, stdout: tutti.stdout(), stderr: tutti.stderr(), running: true });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: tutti.stdout(), stderr: tutti.stderr(), running: false });
    });
  });
}

test('no arguments prints usage and exits 0', async () => {
  const r = await run([]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/tutti serve/);
  expect(r.stdout).toMatch(/tutti validate/);
});

test('--version prints the package version', async () => {
  const { version } = JSON.parse(await (await import('node:fs/promises')).readFile(`${root}package.json`, 'utf8'));
  for (const flag of ['--version', '-v']) {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`tutti ${version}`);
  }
});

test('validate --help prints its usage instead of treating --help as a file', async () => {
  const r = await run(['validate', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/Usage: tutti validate FILE/);
  expect(r.stderr).toBe('');
  const bad = await run(['validate', '--strict', 'scores/demo.score.json']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/unknown flag --strict/);
});

test('validate passes every sample score', async () => {
  const r = await run(['validate', 'scores/demo.score.json', 'scores/tidal-lines.score.json', 'scores/union-rose-load.score.json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout.match(/^✓ /gm)).toHaveLength(3);
});

test('validate on a broken score prints path-and-sentence problems and exits 1', async () => {
  const r = await run(['validate', 'scores/broken/bad-bar.score.json']);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/cues\[1\]\.at\.bar: bar 20 is past the last bar \(16\)/);
  expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
});

test.each([
  [['serve', '--prot', '9000'], /unknown flag --prot \(did you mean --port\?\)/],
  [['serve', '--port', 'abc'], /--port must be a port number/],
  [['serve', '--osc', 'nohost'], /--osc must be HOST:PORT/],
  [['serve', '--edge', 'ftp://x'], /--edge must start with https:\/\/, http:\/\/, wss:\/\/ or ws:\/\//],
  [['serve', '--max-clients', '0'], /--max-clients must be a positive whole number/],
  [['serve', '--port'], /--port needs a value/],
  [['frobnicate'], /unknown command "frobnicate"/],
])('bad input %j: one clear message, exit ≠ 0', async (args, message) => {
  const r = await run(args);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

test('an env var is a flag too (TUTTI_PORT), and a bad one is named', async () => {
  const r = await run(['serve'], { env: { TUTTI_PORT: 'eighty' } });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/TUTTI_PORT must be a port number/);
});

test('serve with a broken score exits 1 and lists its problems', async () => {
  const r = await run(['serve', '--score', 'scores/broken/five-problems.score.json', '--port', '0', '--control-port', '0']);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/has \d+ problem\(s\)/);
  expect(r.stderr).toMatch(/cues\[0\]\.at\.bar: bar 99 is past the last bar \(32\)/);
});

test('serve prints both URLs and the token, serves, and stops cleanly on SIGTERM', async () => {
  const r = await run(['serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', '--autoplay'], {
    untilOutput: /Control token:\s+\S+/,
  });
  expect(r.running).toBe(true);
  const audience = /Audience on this machine:\s+(http:\/\/\S+?)\/?\s/.exec(r.stdout)[1];
  const control = /Control API \(127\.0\.0\.1 only\):\s+(http:\/\/\S+?)\/api\/status/.exec(r.stdout)[1];
  const token = /Control token:\s+(\S+)/.exec(r.stdout)[1];
  // The console URL carries the token, and it opens the console page.
  const consoleUrl = /Console \(a browser on this machine\):\s+(\S+)/.exec(r.stdout)[1];
  expect(consoleUrl).toBe(`${control}/?token=${encodeURIComponent(token)}`);
  expect((await fetch(consoleUrl)).status).toBe(200);
  expect((await fetch(`${audience}/healthz`)).status).toBe(200);
  const status = await (await fetch(`${control}/api/status`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(status.transport).toBe('playing');
  const exited = new Promise((resolve) => r.child.on('close', resolve));
  r.child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

test('a port already in use is a clear error', async () => {
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address();
  const r = await run(['serve', '--host', '127.0.0.1', '--port', String(port), '--control-port', '0']);
  blocker.close();
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/Cannot listen: .*EADDRINUSE|address already in use/i);
});

test('state sizes: the load-test snapshot is about 18 KB and its deltas stay small', async () => {
  const loaded = await loadScoreFile(`${root}scores/union-rose-load.score.json`);
  const sizes = measureScore(loaded.score);
  expect(sizes.snapshotBytes).toBeGreaterThan(15_000);
  expect(sizes.snapshotBytes).toBeLessThan(21_000);
  expect(sizes.deltaMedianBytes).toBeLessThan(1000);
  // Every 15 s a delta carries the next chunk of cues sent ahead (docs/README.md, state `ahead`), capped by AHEAD_CHUNK_BYTES.
  expect(sizes.deltaMaxBytes).toBeLessThan(2000 + AHEAD_CHUNK_BYTES);
});
