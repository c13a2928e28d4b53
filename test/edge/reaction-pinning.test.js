// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): a handful of sockets tapping as fast as the per-socket
// budget allows pins the venue's reaction level at 1 for the whole window. The case is 60
// tapping sockets among 300 quiet viewers; scaled down 5× with the same ratio: 12 tappers, each
// from its own address, among 60 quiet viewers, 20 taps a second for 4 s. The level is what the
// venue computes (local-server/src/votes/reaction-meter.js): taps per second over
// TAPS_PER_VIEWER_AT_FULL × viewers, measured here from the taps the edge's root received.
// Real local workerd; the shards report taps with each push, so the publisher publishes 5 deltas/s.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { TAPS_PER_VIEWER_AT_FULL } from '../../local-server/src/votes/reaction-meter.js';
import { delta, fromAddress, openPublisher, openSocket, publish, showStats, snapshot, startEdge, waitFor } from './helpers.js';

const QUIET = 60;
const TAPPERS = 12;
const WINDOW_MS = 4000;

let edge;
let publisher;
const sockets = [];

beforeAll(async () => {
  edge = await startEdge({ direct: true });
  ({ publisher } = await openPublisher(edge));
  sockets.push(publisher);
  await publish(publisher, snapshot('taps', 0, { bar: 0 }));
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.ws.terminate();
  await edge?.stop();
});

test('12 sockets tapping 20/s among 60 quiet viewers do not pin the reaction level', async () => {
  for (let i = 0; i < QUIET; i += 1) {
    const viewer = openSocket(`${edge.wsUrl}/ws`);
    sockets.push(viewer);
    await viewer.opened;
  }
  const tappers = [];
  for (let i = 0; i < TAPPERS; i += 1) {
    const viewer = openSocket(`${edge.wsUrl}/ws`, { headers: fromAddress(`198.51.100.${10 + i}`) });
    sockets.push(viewer);
    await viewer.opened;
    tappers.push(viewer);
  }
  let seq = 0;
  const push = async () => {
    seq += 1;
    await publish(publisher, delta('taps', seq, { bar: seq }));
  };
  await push();
  const before = (await showStats(edge)).votes.taps;
  const start = Date.now();
  // 5 taps every 250 ms per tapper (20 a second, as a tap frame reports them), a delta every 200 ms
  const tapping = setInterval(() => {
    for (const t of tappers) t.send({ type: 'tap', n: 5 });
  }, 250);
  try {
    while (Date.now() - start < WINDOW_MS) {
      await push();
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    clearInterval(tapping);
  }
  const seconds = (Date.now() - start) / 1000;
  // the taps already read are reported with the next pushes
  for (let i = 0; i < 3; i += 1) await push();
  let taps = 0;
  await waitFor(
    async () => {
      const now = (await showStats(edge)).votes.taps - before;
      const settled = now === taps;
      taps = now;
      return settled && taps > 0;
    },
    { timeoutMs: 10_000, intervalMs: 300, what: 'the taps to be reported' },
  );
  const rate = taps / seconds;
  const level = Math.min(1, rate / (TAPS_PER_VIEWER_AT_FULL * (QUIET + TAPPERS)));
  console.log(
    `reaction pinning: ${taps} taps counted in ${seconds.toFixed(1)} s (${rate.toFixed(0)}/s) from ${TAPPERS} of ${QUIET + TAPPERS} viewers: level ${level.toFixed(2)}`,
  );
  expect(level).toBeLessThan(0.5);
  expect(taps).toBeGreaterThan(0);
}, 90_000);
