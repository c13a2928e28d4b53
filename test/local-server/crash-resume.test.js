// Crash resume is on by default (README.md "Crash resume"): `tutti serve` keeps the show
// position in the state folder, resumes it after an unclean exit (SIGKILL), and starts at the
// top after a clean stop (SIGTERM clears it). Real processes; the state folder is a temp dir.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../support/clients.js';
import { serveProcesses } from '../support/serve-process.js';

const token = 'resume-test-token';
const processes = serveProcesses({ token, prefix: 'tutti-resume-' });
const { serve } = processes;
const stateFile = path.join(processes.stateHome, 'tutti', 'show-state.json');

afterAll(() => processes.cleanUp());

const api = async (control, p, body) =>
  (
    await fetch(`${control}${p}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
  ).json();

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
  await waitFor(
    () => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).point.tempoFactor !== 1,
    5000,
    'position and tempo saved',
  );
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
  const logFile = path.join(processes.stateHome, 'tutti', 'tutti.log');
  expect(show.output()).toContain(logFile);
  const logged = readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
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

test('rehearsal mode survives SIGKILL: the hall does not see the run-through after a crash', async () => {
  rmSync(stateFile, { force: true });
  let show = await serve();
  await api(show.control, '/api/rehearsal-mode', { on: true });
  await waitFor(
    () => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).rehearsal === true,
    5000,
    'rehearsal mode saved',
  );
  await stop(show.child, 'SIGKILL');
  show = await serve();
  expect((await api(show.control, '/api/status')).rehearsal).toBe(true);
  expect(show.output()).toMatch(/resumed in rehearsal mode/);
  // Off is saved too: the next crash resumes showing the show.
  await api(show.control, '/api/rehearsal-mode', { on: false });
  await waitFor(() => JSON.parse(readFileSync(stateFile, 'utf8')).rehearsal === undefined, 5000, 'rehearsal mode off saved');
  await stop(show.child, 'SIGKILL');
  show = await serve();
  expect((await api(show.control, '/api/status')).rehearsal).toBe(false);
  expect(await stop(show.child, 'SIGTERM')).toBe(0);
}, 60_000);
