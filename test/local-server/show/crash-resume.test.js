// Crash resume is on by default (docs/how-to/venue-server-unattended.md#crash-resume): `tutti serve` keeps the show
// position in the state folder, resumes it after an unclean exit (SIGKILL), and starts at the
// top after a clean stop (SIGTERM clears it). Real processes; the state folder is a temp dir.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../../support/clients.js';
import { serveProcesses } from '../../support/serve-process.js';
import { writeRehearsalScore } from '../../support/rehearsal-score.js';

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

test('a rehearsal loop survives SIGKILL: the show comes back going round it, on the pass sounding now', async () => {
  rmSync(stateFile, { force: true });
  const score = ['--score', writeRehearsalScore()];
  let show = await serve(score);
  // Section B (bars 3–4) until released, at 200 %: a pass lasts 2 s.
  await api(show.control, '/api/tempo', { percent: 200 });
  await api(show.control, '/api/loop', { from: { section: 'B' } });
  await waitFor(
    () => {
      const point = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')).point : null;
      return point?.transport === 'playing' && point.loop?.start === 8;
    },
    5000,
    'the loop saved',
  );
  expect(JSON.parse(readFileSync(stateFile, 'utf8')).point.loop).toMatchObject({
    start: 8,
    end: 16,
    pass: expect.any(Number),
    passes: null,
    releasing: false,
  });
  await stop(show.child, 'SIGKILL');
  const saved = JSON.parse(readFileSync(stateFile, 'utf8')).point; // what the restart resumes from
  // Down for longer than a pass (2 s at 240 bpm), so the show must come back on a later one.
  await new Promise((r) => setTimeout(r, 2500));
  show = await serve(score);
  const status = await api(show.control, '/api/status');
  expect(status).toMatchObject({
    transport: 'playing',
    tempoPercent: 200,
    loop: { from: { bar: 3, beat: 1 }, to: { bar: 4, beat: 4 }, of: null },
  });
  // On the old grid: the beat shown is a whole number of beats (250 ms) after the loop's first
  // beat, and its pass and place in the range are what that time says.
  const sinceStart = status.position.at - saved.anchor.time;
  expect(saved.anchor.index).toBe(8);
  expect(Math.abs(sinceStart / 250 - Math.round(sinceStart / 250))).toBeLessThan(0.01);
  expect(status.loop.pass).toBe(saved.loop.pass + Math.floor(Math.round(sinceStart / 250) / 8));
  expect(status.loop.pass).toBeGreaterThan(1);
  expect(status.position.index).toBe(8 + (Math.round(sinceStart / 250) % 8));
  expect(show.output()).toMatch(
    /resumed the show after an unclean stop .*: playing at bar [34], in the loop bar 3–4 \(pass \d+, until released\)/,
  );
  await api(show.control, '/api/transport', { action: 'stop' });
  expect(await stop(show.child, 'SIGTERM')).toBe(0);
}, 60_000);

test('a count-in running at the crash comes back as a pause on its start beat', async () => {
  rmSync(stateFile, { force: true });
  const score = ['--score', writeRehearsalScore()];
  let show = await serve(score);
  await api(show.control, '/api/tempo', { percent: 10 }); // 10 %: 12 bpm, the count-in lasts long enough to crash in
  await api(show.control, '/api/start', { from: { section: 'C' }, countInBars: 2 });
  await waitFor(
    () => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).point.countingIn === true,
    5000,
    'the count-in saved',
  );
  await stop(show.child, 'SIGKILL');
  show = await serve(score);
  const status = await api(show.control, '/api/status');
  expect(status).toMatchObject({ transport: 'paused', countIn: null, position: { bar: 5, beat: 1 } });
  expect(show.output()).toMatch(/its count-in was not resumed \(paused on the start beat\)/);
  expect(await stop(show.child, 'SIGTERM')).toBe(0);
}, 60_000);
