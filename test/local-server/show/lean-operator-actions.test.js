// An operator's action reaches a lean-stream viewer as soon as a full-stream viewer (docs/results.md#how-fast-how-small
// : the lean stream sends about one update per ahead window, but never holds
// back a pause, a seek, a tempo change or a vote opening). Real server, real control API, one
// viewer per stream with ws's default options (the lean one negotiates permessage-deflate, as a
// browser does); each applies every envelope and notes when its state first shows the action
// (the same fields `npm run bench:operator` watches). The bound is the full viewer's own latency
// in the same test, with a small floor for scheduling noise — no wall-clock limit.
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { startShowServer } from '../../../local-server/src/server.js';
import { createTracker, postControl, waitFor, wsUrl } from '../../support/clients.js';
import { OPERATOR_ACTIONS, actionShown } from '../../../bench/operator/actions.js';
import { removeOperatorScore, writeOperatorScore } from '../../../bench/operator/score.js';

const token = 'test-token-lean-operator';
/** Scheduling noise allowed on top of the full viewer's latency (a held-back update is ~15 s late). */
const FLOOR_MS = 50;
const scorePath = writeOperatorScore('tutti-test-operator-');
let server;

beforeAll(async () => {
  server = await startShowServer({
    scorePath,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token,
    autoplay: true,
  });
});
afterAll(async () => {
  await server.close();
  removeOperatorScore(scorePath);
});

/** A viewer that applies every envelope and stamps when its state first shows `watching`. */
async function openViewer(query) {
  const ws = new WebSocket(`${wsUrl(server.audienceUrl)}${query}`);
  const tracker = createTracker();
  const viewer = { ws, tracker, watching: null, shownAt: null };
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.v !== 1 || !tracker.accept(msg)) return;
    if (viewer.watching && viewer.shownAt === null && actionShown(viewer.watching, tracker.state)) viewer.shownAt = performance.now();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return viewer;
}

const control = async (request) => expect((await postControl(server.controlUrl, token, request)).status).toBe(200);

test('pause, seek, tempo and a vote opening reach the lean viewer as soon as the full one', async () => {
  const full = await openViewer('?stream=full');
  const lean = await openViewer('?stream=lean');
  try {
    expect(lean.ws.extensions).toMatch(/permessage-deflate/);
    // Both viewers playing and up to date with their stream (after an undo too: a tempo reset
    // carries new `ahead` chunks, which the lean viewer inflates), so an action queues behind nothing.
    const caughtUp = () =>
      full.tracker.state?.transport === 'playing' &&
      lean.tracker.state?.transport === 'playing' &&
      full.tracker.seq === server.show.stream.seq() &&
      lean.tracker.seq === server.show.leanStream.seq() &&
      // The last undo's look-ahead (a play's) is out too: else this action would send it first.
      !server.show.lookAheadWaiting();
    // The test's first fetch sets up its HTTP client: not the server's time.
    await (await fetch(`${server.controlUrl}/api/status`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    const seen = [];
    for (const action of OPERATOR_ACTIONS) {
      await waitFor(caughtUp, 5000, 'both viewers caught up');
      for (const viewer of [full, lean]) {
        expect(actionShown(action.spec, viewer.tracker.state)).toBe(false);
        viewer.watching = action.spec;
        viewer.shownAt = null;
      }
      const t0 = performance.now();
      await control(action.request);
      await waitFor(() => full.shownAt !== null && lean.shownAt !== null, 20_000, `${action.name} on both viewers`);
      const fullMs = full.shownAt - t0;
      const leanMs = lean.shownAt - t0;
      seen.push({
        action: action.name,
        fullMs: Math.round(fullMs),
        leanMs: Math.round(leanMs),
        boundMs: Math.round(fullMs + Math.max(FLOOR_MS, fullMs)),
      });
      for (const viewer of [full, lean]) viewer.watching = null;
      for (const undo of action.undo) await control(undo);
    }
    expect(seen.map((s) => s.action)).toEqual(OPERATOR_ACTIONS.map((a) => a.name));
    // Every action within its bound (the list says which one was late, and by how much).
    expect(seen.filter((s) => s.leanMs > s.boundMs)).toEqual([]);
    expect(full.tracker.gaps + lean.tracker.gaps).toBe(0);
  } finally {
    full.ws.close();
    lean.ws.close();
  }
}, 60_000);
