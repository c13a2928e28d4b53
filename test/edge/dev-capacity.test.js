// `npm run edge:dev` must hold thousands of WebSocket viewers opened at once on a laptop
// (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed). Under `wrangler dev` its dev proxy cost ~5 open
// files per viewer in one workerd (7,383 fds at 1,500 viewers), so near 4,000 viewers it hit the
// 20,000 open-files limit: "Too many open files", and every viewer dropped. This test starts the
// real edge:dev script, opens 1,000 viewers at once, checks every process it started would still
// fit 5,000 viewers under its own open-files limit, publishes one update that all 1,000 must
// receive, and checks workerd was neither restarted nor dropped anyone.
// (The 5,000-viewer run itself is `npm run bench:edge`.)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createEnvelope } from '#core/protocol/envelope.js';
import { openFiles, processTree } from '../support/process-fds.js';
import { waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';
import { startDevScript } from './dev-script.js';

const VIEWERS = 1000;
const TARGET_VIEWERS = 5000;

let dev;
let child;
let persistDir;
let output;
let base;
let token;

beforeAll(async () => {
  persistDir = mkdtempSync(join(tmpdir(), 'tutti-edge-dev-'));
  const port = await freePort();
  dev = await startDevScript(['--port', String(port), '--persist-to', persistDir]);
  ({ child, output, base, token } = dev);
}, 130_000);

afterAll(async () => {
  await dev?.stop();
  if (persistDir) rmSync(persistDir, { recursive: true, force: true });
}, 30_000);

/** A lean viewer: remembers the epoch/seq heads of the frames it got, and whether it closed. */
function openLeanViewer(url) {
  const viewer = { ws: new WebSocket(url, { perMessageDeflate: false }), heads: new Set(), closed: false };
  viewer.ws.on('message', (data) => {
    const text = String(data);
    viewer.heads.add(`${/"epoch":"([^"]+)"/.exec(text)?.[1]}#${/"seq":(\d+)/.exec(text)?.[1]}`);
  });
  viewer.ws.on('close', () => {
    viewer.closed = true;
  });
  viewer.opened = new Promise((resolve) => {
    viewer.ws.once('open', () => resolve(true));
    viewer.ws.once('error', () => resolve(false));
  });
  return viewer;
}

test(`edge:dev holds ${VIEWERS} viewers opened at once, with room for ${TARGET_VIEWERS}, and all get the update`, async () => {
  const before = new Map(
    processTree(child.pid)
      .map((pid) => [pid, openFiles(pid)])
      .filter(([, f]) => f),
  );
  const workerdBefore = [...before.values()].filter((f) => f.name === 'workerd').map((f) => f.pid);
  expect(workerdBefore.length).toBeGreaterThan(0);

  // All at once, as a hall of phones scanning the QR code together.
  const viewers = Array.from({ length: VIEWERS }, () => openLeanViewer(`${base.replace(/^http/, 'ws')}/ws`));
  const opened = await Promise.all(viewers.map((v) => v.opened));
  expect(opened.filter(Boolean).length).toBe(VIEWERS);
  await new Promise((r) => setTimeout(r, 1000));

  // Every process edge:dev started must fit TARGET_VIEWERS under its own open-files limit.
  const costs = [];
  for (const [pid, first] of before) {
    const now = openFiles(pid);
    if (!now) continue;
    const perViewer = Math.max(0, (now.fds - first.fds) / VIEWERS);
    costs.push({
      pid,
      name: now.name,
      fds: now.fds,
      perViewer: Number(perViewer.toFixed(2)),
      projected: Math.round(now.fds + perViewer * (TARGET_VIEWERS - VIEWERS)),
      limit: now.limit,
    });
  }
  const overLimit = costs.filter((c) => c.projected >= c.limit);
  expect({ overLimit, costs }).toEqual({ overLimit: [], costs });

  // One publisher, one snapshot and one delta: every viewer must get the delta.
  const epoch = `dev-capacity-${Date.now()}`;
  const publisher = new WebSocket(`${base.replace(/^http/, 'ws')}/publish`, {
    headers: { authorization: `Bearer ${token}` },
    perMessageDeflate: false,
  });
  const replies = [];
  publisher.on('message', (data) => replies.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    publisher.once('open', resolve);
    publisher.once('error', reject);
  });
  await waitFor(() => replies.some((r) => r.type === 'hello'), { what: 'the publisher hello' });
  publisher.send(JSON.stringify(createEnvelope('snapshot', epoch, 1, Date.now(), { bar: 1 })));
  await waitFor(() => replies.some((r) => r.type === 'ack' && r.seq === 1), { what: 'the snapshot ack' });
  publisher.send(JSON.stringify(createEnvelope('delta', epoch, 2, Date.now(), { bar: 2 })));
  const head = `${epoch}#2`;
  await waitFor(() => viewers.every((v) => v.heads.has(head)), { timeoutMs: 30_000, what: `all ${VIEWERS} viewers to receive the delta` });
  publisher.close();

  // Nobody dropped, and the same workerd still serves (no crash, no restart).
  expect(viewers.filter((v) => v.closed).length).toBe(0);
  const workerdAfter = processTree(child.pid).filter((pid) => openFiles(pid)?.name === 'workerd');
  expect(workerdAfter).toEqual(expect.arrayContaining(workerdBefore));
  expect(output.filter((line) => /Too many open files|restart/i.test(line))).toEqual([]);

  for (const v of viewers) v.ws.terminate();
}, 90_000);
