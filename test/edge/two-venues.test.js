// Two venue servers publishing to one edge with the same token (issue 11): the newer one wins,
// the older one stops and says so (status, log, metric) instead of taking the show back, and it
// publishes again only when its operator asks (POST /api/edge/resume).

import { startServeChild } from './serve-child.js';
import { openViewer, showStats, startEdge, waitFor } from './helpers.js';

const WATCH_MS = 5000;
let edge;
const venues = [];

beforeAll(async () => {
  edge = await startEdge();
});

afterAll(async () => {
  await Promise.all(venues.map((v) => v.kill()));
  await edge?.stop();
});

/** How often the stream a viewer receives changed hands (epoch switches) in its frames from `from` on. */
function switches(frames, from) {
  let count = 0;
  let epoch = null;
  for (const f of frames.slice(from)) {
    if (typeof f.epoch !== 'string') continue;
    if (epoch !== null && f.epoch !== epoch) count += 1;
    epoch = f.epoch;
  }
  return count;
}

test('the second venue takes over, the first stops and says so; no flapping; the first publishes again only on resume', async () => {
  const first = await startServeChild(edge);
  venues.push(first);
  await waitFor(async () => (await first.status()).edge.connected, { what: 'the first venue on the edge', timeoutMs: 20_000 });
  const epochA = (await first.status()).epoch;
  const viewer = await openViewer(edge);
  await viewer.next((f) => f.epoch === epochA);

  const second = await startServeChild(edge);
  venues.push(second);
  const epochB = (await second.status()).epoch;
  expect(epochB).not.toBe(epochA);
  await viewer.next((f) => f.epoch === epochB, 20_000);
  const takeover = viewer.frames.length;
  await new Promise((r) => setTimeout(r, WATCH_MS));

  const flaps = switches(viewer.frames, takeover - 1);
  console.log(`two venues, one token: ${flaps} change(s) of publisher seen by a viewer in ${WATCH_MS} ms after the takeover`);
  expect(flaps).toBe(0);
  const tail = viewer.frames.slice(takeover);
  expect(tail.length).toBeGreaterThan(3); // the show plays on (--autoplay)
  expect(tail.every((f) => f.type === 'pong' || f.epoch === epochB)).toBe(true);

  const a = await first.status();
  expect(a.edge).toMatchObject({ enabled: true, state: 'replaced', connected: false });
  expect(a.edge.lastError).toMatch(/REPLACED/);
  expect(typeof a.edge.replacedAt).toBe('number');
  expect((await second.status()).edge).toMatchObject({ state: 'connected', connected: true });
  expect(first.output()).toMatch(/REPLACED: another venue server/);
  expect((await first.api('/metrics')).body).toMatch(/^tutti_edge_replaced 1$/m);
  expect((await second.api('/metrics')).body).toMatch(/^tutti_edge_replaced 0$/m);
  expect((await showStats(edge)).publishers).toBe(1);

  // The operator of the first venue takes the show back on purpose: now the second one stops.
  const resumed = await first.api('/api/edge/resume', 'POST');
  expect(resumed.status).toBe(200);
  await viewer.next((f) => f.epoch === epochA, 20_000);
  const handBack = viewer.frames.length;
  await new Promise((r) => setTimeout(r, 3000));
  expect(switches(viewer.frames, handBack - 1)).toBe(0);
  expect((await first.status()).edge.state).toBe('connected');
  expect((await second.status()).edge.state).toBe('replaced');
  await viewer.close();
}, 90_000);
