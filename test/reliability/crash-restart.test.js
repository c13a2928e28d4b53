// The show server is SIGKILLed mid-show and restarted with the same command: every viewer
// (WS, SSE, poll) is back in sync within 3 s of the restart, and the show carries on where it
// should be (--state-file), instead of starting again at bar 1.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { wsViewer, sseViewer, pollViewer, canonicalJson } from '../support/reconnecting-clients.js';
import { waitFor } from '../support/clients.js';
import { freePort } from '../support/free-port.js';
import { loopbackServeFlags, spawnTutti } from '../support/serve-process.js';

const token = 'crash-test-token';

/** `tutti serve` with these flags, its state (and log file) in the temp dir; the run keeps its output. */
function startServe(args) {
  const run = spawnTutti(['serve', ...args], { env: { ...process.env, XDG_STATE_HOME: dir } });
  return Object.assign(run.child, { output: run.output });
}

let dir;
let child;
const viewers = [];
afterAll(async () => {
  viewers.forEach((v) => v.stop());
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('SIGKILL mid-show: viewers resync within 3 s of the restart and the show resumes in place', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-crash-'));
  const port = await freePort();
  const controlPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const control = `http://127.0.0.1:${controlPort}`;
  const args = [...loopbackServeFlags({ port, controlPort, token }), '--state-file', path.join(dir, 'show.json')];
  const api = async (p, body) =>
    (
      await fetch(`${control}${p}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();

  child = startServe(args);
  await waitFor(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 10000, 'first server');
  await api('/api/transport', { action: 'seek', bar: 5 });
  viewers.push(wsViewer(base), sseViewer(base), pollViewer(base));
  const firstEpoch = (await api('/api/status')).epoch;
  await waitFor(() => viewers.every((v) => v.tracker.epoch === firstEpoch && v.tracker.seq > 3), 8000, 'viewers in sync');
  const before = await api('/api/status');

  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  await new Promise((r) => setTimeout(r, 1000)); // the hall waits a second

  child = startServe(args);
  await waitFor(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 10000, 'restarted server');
  const restartedAt = Date.now();
  const after = await api('/api/status');
  expect(after.epoch).not.toBe(firstEpoch);
  expect(after.transport).toBe('playing');
  // It carried on: later than before the kill (the show kept time while the server was down).
  expect(after.position.index).toBeGreaterThan(before.position.index + 1);
  expect(after.position.bar).toBeGreaterThanOrEqual(before.position.bar);

  const syncedAt = {};
  await waitFor(
    () => {
      for (const v of viewers) if (!syncedAt[v.kind] && v.tracker.epoch === after.epoch) syncedAt[v.kind] = Date.now();
      return Object.keys(syncedAt).length === viewers.length;
    },
    3000,
    'every viewer in the new epoch',
  );
  for (const kind of Object.keys(syncedAt)) expect(syncedAt[kind] - restartedAt).toBeLessThanOrEqual(3000);

  // Freeze the show and compare every viewer's state with the server's, byte for byte.
  await api('/api/transport', { action: 'pause' });
  const final = await api('/api/status');
  await waitFor(
    () => viewers.every((v) => v.tracker.seq === final.seq && v.tracker.epoch === final.epoch),
    3000,
    'viewers at the final seq',
  );
  const [snapshot] = await (await fetch(`${base}/poll`)).json();
  expect(snapshot.seq).toBe(final.seq);
  for (const v of viewers) expect(canonicalJson(v.tracker.state)).toBe(canonicalJson(snapshot.data));
}, 40_000);
