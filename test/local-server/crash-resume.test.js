// Crash resume is on by default (README.md "Crash resume"): `tutti serve` keeps the show
// position in the state folder, resumes it after an unclean exit (SIGKILL), and starts at the
// top after a clean stop (SIGTERM clears it). Real processes; the state folder is a temp dir.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../support/clients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const token = 'resume-test-token';
const stateHome = mkdtempSync(path.join(os.tmpdir(), 'tutti-resume-'));
const stateFile = path.join(stateHome, 'tutti', 'show-state.json');
const running = new Set();

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(stateHome, { recursive: true, force: true });
});

/** Start `tutti serve`; resolves once it printed its start-up lines (the last says stopped or playing). */
function serve(extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}local-server/bin/tutti.js`, 'serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', '--token', token, ...extra], {
      cwd: root, env: { ...process.env, XDG_STATE_HOME: stateHome }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15000);
    const onData = (d) => {
      out += d;
      const control = /Control API \(127\.0\.0\.1 only\):\s+(http:\/\/\S+?)\/api\/status/.exec(out)?.[1];
      if (control && /^ {2}(Stopped: |Playing\.)/m.test(out)) {
        clearTimeout(timer);
        resolve({ child, control, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => running.delete(child));
  });
}

const api = async (control, p, body) => (await fetch(`${control}${p}`, {
  method: body ? 'POST' : 'GET',
  headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
  body: body ? JSON.stringify(body) : undefined,
})).json();

async function stop(child, signal) {
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  child.kill(signal);
  return exited;
}

test('the position survives SIGKILL by default; a clean stop clears it', async () => {
  let show = await serve();
  expect(show.output()).toContain(stateFile);
  await api(show.control, '/api/transport', { action: 'seek', bar: 7 });
  await api(show.control, '/api/tempo', { bpm: 120 });
  await waitFor(() => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).point.tempoFactor !== 1, 5000, 'position and tempo saved');
  const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
  expect(path.isAbsolute(saved.scorePath)).toBe(true);

  await stop(show.child, 'SIGKILL');
  show = await serve();
  let status = await api(show.control, '/api/status');
  expect(status.position.bar).toBe(7);
  expect(status.tempo).toBe(120);
  expect(show.output()).toMatch(/resumed the show after an unclean stop/);

  expect(await stop(show.child, 'SIGTERM')).toBe(0);
  expect(existsSync(stateFile)).toBe(false);
  show = await serve();
  status = await api(show.control, '/api/status');
  expect(status.position.bar).toBe(1);
  expect(status.transport).toBe('stopped');
  expect(await stop(show.child, 'SIGINT')).toBe(0);

  // The log file sits in the same state folder: JSON lines, the resume among them.
  const logFile = path.join(stateHome, 'tutti', 'tutti.log');
  expect(show.output()).toContain(logFile);
  const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(logged.some((e) => /resumed the show after an unclean stop/.test(e.msg))).toBe(true);
  expect(readFileSync(logFile, 'utf8')).not.toContain(token);
}, 60_000);

test('--no-resume saves nothing and resumes nothing', async () => {
  rmSync(stateFile, { force: true });
  const show = await serve(['--no-resume']);
  await api(show.control, '/api/transport', { action: 'seek', bar: 9 });
  await new Promise((r) => setTimeout(r, 300));
  expect(existsSync(stateFile)).toBe(false);
  expect(show.output()).toMatch(/Show position not saved \(--no-resume\)/);
  await stop(show.child, 'SIGKILL');
}, 30_000);
