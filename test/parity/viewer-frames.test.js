// Venue and edge hold a viewer socket to one budget (core/protocol/viewer-limits.js; docs/reference/audience-protocol.md#endpoints
// docs/reference/edge-settings.md#other-limits): the same flood of resyncs gets
// the same number of snapshots from a venue server and from the edge mirroring it, and the same
// flood of pings is closed with 1008 at the same point.

import { fileURLToPath } from 'node:url';
import { CloseCode } from '#core/protocol/envelope.js';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';
import { openViewer, waitFor } from '../edge/helpers.js';
import { startVenueAndEdge } from './venue-and-edge.js';

const TIDAL = fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url));

let edge;
let server;
/** @type {Record<'venue' | 'edge', { wsUrl: string }>} */
let ends;

beforeAll(async () => {
  ({ edge, server } = await startVenueAndEdge({ scorePath: TIDAL }));
  ends = { venue: { wsUrl: `ws://127.0.0.1:${server.audiencePort}` }, edge };
}, 90_000);

afterAll(async () => {
  await server?.close();
  await edge?.stop();
});

const snapshots = (viewer) => viewer.frames.filter((f) => f.type === 'snapshot').length;

/** Resyncs sent at once: how many were answered with a snapshot, and whether the socket stayed open. */
async function resyncFlood(end, count) {
  const viewer = await openViewer(end);
  await viewer.next((f) => f.type === 'snapshot');
  for (let i = 0; i < count; i += 1) viewer.send({ type: 'resync' });
  // One socket, in order: everything answered before the pong has arrived with it.
  viewer.send({ type: 'ping', id: 1, c: 1 });
  await viewer.next((f) => f.type === 'pong' && f.id === 1, 10_000);
  await new Promise((r) => setTimeout(r, 300));
  const result = { answered: snapshots(viewer) - 1, open: viewer.state.closeCode === null };
  await viewer.close();
  return result;
}

/** Pings sent at once: how many pongs came back before the close, the close code, and how long it took. */
async function pingFlood(end, count) {
  const viewer = await openViewer(end);
  await viewer.next((f) => f.type === 'snapshot');
  const started = Date.now();
  for (let i = 0; i < count; i += 1) viewer.send({ type: 'ping', id: i + 10, c: i });
  await waitFor(() => viewer.state.closeCode !== null, { timeoutMs: 15_000, what: 'the flood to be closed' });
  return { pongs: viewer.frames.filter((f) => f.type === 'pong').length, code: viewer.state.closeCode, ms: Date.now() - started };
}

test('10 resyncs at once: both answer exactly the resync burst, the rest get nothing, the socket stays open', async () => {
  const results = {};
  for (const [name, end] of Object.entries(ends)) results[name] = await resyncFlood(end, 10);
  const expected = { answered: VIEWER_LIMITS.resyncs.burst, open: true };
  expect(results).toEqual({ venue: expected, edge: expected });
}, 60_000);

test('a ping flood is closed with 1008 on both once the frame burst is spent', async () => {
  const { burst, ratePerSecond } = VIEWER_LIMITS.frames;
  for (const [name, end] of Object.entries(ends)) {
    const { pongs, code, ms } = await pingFlood(end, burst * 2);
    // The bucket refills while the flood is read: at most ratePerSecond × the flood's duration more.
    expect({ name, code }).toEqual({ name, code: CloseCode.POLICY_VIOLATION });
    expect(pongs).toBeGreaterThanOrEqual(burst);
    expect(pongs).toBeLessThanOrEqual(burst + Math.ceil((ratePerSecond * ms) / 1000) + 1);
  }
}, 60_000);
