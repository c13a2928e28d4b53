// `npm run edge:dev` supervises its workerd (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed): a crash is
// named in the terminal with its signal, workerd serves again on the same port with the same
// storage (the published show is still there), and a crash loop ends edge:dev with exit code 1
// instead of spinning. Both tests run the real dev.js and kill its real workerd with SIGKILL,
// found by PID below the dev.js process this test started.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processName } from '../../bench/lib/process-tree.js';
import { delta, openPublisher, openViewer, publish, snapshot, waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';
import { startDevScript } from './dev-script.js';

const MAX_RESTARTS = 5; // supervise-workerd.js: restarts allowed within 60 s

const started = [];
const dirs = [];

/** dev.js on a free port with a fresh persist folder. */
async function startDev() {
  const persistDir = mkdtempSync(join(tmpdir(), 'tutti-edge-devcrash-'));
  dirs.push(persistDir);
  const port = await freePort();
  const dev = await startDevScript(['--port', String(port), '--persist-to', persistDir]);
  started.push(dev);
  return { dev, port };
}

/** SIGKILL a workerd; one that has already exited (Miniflare or the supervisor got there first) is fine. */
function killWorkerd(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
  }
}

/** Wait until exactly one workerd runs below dev.js that is not in `gone`, and it answers /healthz. */
async function liveWorkerd(dev, gone, what) {
  let pid = null;
  await waitFor(
    async () => {
      const fresh = dev.workerdPids().filter((p) => !gone.has(p));
      if (fresh.length !== 1) return false;
      [pid] = fresh;
      return (await fetch(`${dev.base}/healthz`, { signal: AbortSignal.timeout(5000) }).catch(() => null))?.ok;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: () => `${what}:\n${dev.output.join('\n')}` },
  );
  return pid;
}

afterAll(async () => {
  for (const dev of started) await dev.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

test('a killed workerd is reported, serves again on the same port, and the published show survived', async () => {
  const { dev, port } = await startDev();
  const { publisher } = await openPublisher(dev.edge);
  expect(await publish(publisher, snapshot('crash', 1, { title: 'kept', n: 1 }))).toMatchObject({ type: 'ack', seq: 1 });
  expect(await publish(publisher, delta('crash', 2, { n: 2 }))).toMatchObject({ type: 'ack', seq: 2 });
  await publisher.close();

  const pid = await liveWorkerd(dev, new Set(), 'the first workerd');
  process.kill(pid, 'SIGKILL');

  // The terminal names the crash and the restart, with the signal and the port.
  await waitFor(
    () =>
      dev.output.some((line) =>
        line.includes(
          `edge:dev: workerd (pid ${pid}) exited (signal SIGKILL); starting it again on :${port} with the same storage (restart 1 of ${MAX_RESTARTS} within 60 s)`,
        ),
      ),
    { timeoutMs: 10_000, what: () => `the crash line:\n${dev.output.join('\n')}` },
  );
  // Serving again on the same URL, from a new workerd, within a bound.
  const killedAt = Date.now();
  const again = await liveWorkerd(dev, new Set([pid]), 'a new workerd answering /healthz on the same port');
  expect(again).not.toBe(pid);
  expect(processName(pid)).toBeNull();
  expect(Date.now() - killedAt).toBeLessThan(30_000);
  await waitFor(() => dev.output.some((line) => line === `edge:dev: workerd is serving again on :${port}`), {
    what: () => `the serving-again line:\n${dev.output.join('\n')}`,
  });

  // The show came back from storage: the state, and the publisher's place in the stream.
  const [snap] = await (await fetch(`${dev.base}/poll`)).json();
  expect(snap).toMatchObject({ type: 'snapshot', epoch: 'crash', seq: 2, data: { title: 'kept', n: 2 } });
  const viewer = await openViewer(dev.edge);
  expect(await viewer.next()).toMatchObject({ type: 'snapshot', epoch: 'crash', seq: 2, data: { title: 'kept', n: 2 } });
  await viewer.close();
  const venue = await openPublisher(dev.edge);
  expect(venue.hello).toMatchObject({ type: 'hello', epoch: 'crash', seq: 2 });
  await venue.publisher.close();
  expect(dev.child.exitCode).toBeNull();
}, 120_000);

test('a workerd that also dies while starting again is started again by edge:dev itself, after a pause', async () => {
  // Miniflare restarts a crashed workerd once by itself; when that one dies while starting,
  // Miniflare stops trying and, without the supervisor, the port stays dead.
  const { dev, port } = await startDev();
  const killed = new Set();
  const first = await liveWorkerd(dev, killed, 'the first workerd');
  killed.add(first);
  process.kill(first, 'SIGKILL');
  const cameBack = () => dev.output.some((line) => line.startsWith('edge:dev: workerd did not come back ('));
  // Kill each new workerd the moment it appears (while it starts), until the supervisor says it did
  // not come back; bounded in kills (within the restart bound) and time.
  const deadline = Date.now() + 20_000;
  while (!cameBack() && killed.size < MAX_RESTARTS && Date.now() < deadline) {
    const fresh = dev.workerdPids().filter((pid) => !killed.has(pid));
    for (const pid of fresh) {
      killed.add(pid);
      killWorkerd(pid);
    }
    await new Promise((resolve) => setTimeout(resolve, fresh.length ? 300 : 5));
  }
  await waitFor(cameBack, { what: () => `the did-not-come-back line:\n${dev.output.join('\n')}` });
  expect(dev.output.find((line) => line.startsWith('edge:dev: workerd did not come back ('))).toMatch(/; trying again in 1 s$/);
  await liveWorkerd(dev, killed, 'edge:dev to start workerd again on the same port');
  await waitFor(() => dev.output.includes(`edge:dev: workerd is serving again on :${port}`), {
    what: () => `the serving-again line:\n${dev.output.join('\n')}`,
  });
  expect(dev.child.exitCode).toBeNull();
}, 120_000);

test(`a crash loop ends edge:dev with exit code 1 after ${MAX_RESTARTS} restarts within 60 s`, async () => {
  const { dev, port } = await startDev();
  const killed = new Set();
  const exited = () => dev.child.exitCode !== null || dev.child.signalCode !== null;
  // Each time a workerd is back and serving, kill it again, until edge:dev gives up. Not a fixed
  // count: on a busy machine the supervisor's health check can miss a slow start and try again
  // while Miniflare restarts the crashed one itself, so one kill may hit a workerd the supervisor
  // never counted. Bounded in kills and time.
  const deadline = Date.now() + 90_000;
  while (!exited() && killed.size < 3 * (MAX_RESTARTS + 1) && Date.now() < deadline) {
    const fresh = dev.workerdPids().filter((pid) => !killed.has(pid));
    const serving = fresh.length > 0 && (await fetch(`${dev.base}/healthz`, { signal: AbortSignal.timeout(5000) }).catch(() => null))?.ok;
    if (!serving) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    for (const pid of fresh) {
      killed.add(pid);
      killWorkerd(pid);
    }
  }
  await waitFor(exited, {
    timeoutMs: 20_000,
    what: () => `edge:dev to exit:\n${dev.output.join('\n')}`,
  });
  const { code } = await dev.exited;
  expect(code).toBe(1);
  const restarts = dev.output.filter((line) => /^edge:dev: workerd \(pid \d+\) exited \(signal SIGKILL\); starting it again/.test(line));
  expect(restarts).toHaveLength(MAX_RESTARTS);
  expect(restarts.at(-1)).toContain(`on :${port} with the same storage (restart ${MAX_RESTARTS} of ${MAX_RESTARTS} within 60 s)`);
  const givingUp = new RegExp(
    `^edge:dev: workerd \\(pid (\\d+)\\) exited \\(signal SIGKILL\\): ${MAX_RESTARTS + 1} crashes within 60 s, giving up \\(the storage is kept; fix the cause and run it again\\)$`,
  );
  const gaveUp = dev.output.map((line) => givingUp.exec(line)).find(Boolean);
  expect(gaveUp).toBeTruthy();
  expect(killed.has(Number(gaveUp?.[1]))).toBe(true);
  // Nothing left behind.
  expect(dev.workerdPids()).toEqual([]);
  for (const pid of killed) expect(processName(pid)).toBeNull();
}, 180_000);
