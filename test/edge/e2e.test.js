// End to end: `tutti serve --edge` (startShowServer with edgeUrl/edgeToken) + the worker on
// local workerd. A viewer on the edge sees the same states, seq for seq, as one on the venue.

import WebSocket from 'ws';
import { applyEnvelope } from '#core/stream/state-stream.js';
import { startShow } from '../support/show.js';
import { openViewer, showStats, startEdge, waitFor, withoutVenue } from './helpers.js';

let edge;
let server;

/** Records the state a client would hold after each (epoch, seq) it sees. */
function recordStates(frames) {
  const states = new Map();
  let state = null;
  let read = 0;
  return () => {
    for (; read < frames.length; read += 1) {
      const e = frames[read];
      if (e.type !== 'snapshot' && e.type !== 'delta') continue;
      state = applyEnvelope(state, e);
      states.set(`${e.epoch}#${e.seq}`, JSON.stringify(state));
    }
    return states;
  };
}

beforeAll(async () => {
  edge = await startEdge();
  server = await startShow({
    edgeUrl: edge.url,
    edgeToken: edge.token,
  });
});

afterAll(async () => {
  await server?.close();
  await edge?.stop();
});

test('a viewer on the edge sees the same state as a viewer on the local server', async () => {
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the server to connect to the edge' });

  const local = new WebSocket(`${server.audienceUrl.replace(/^http/, 'ws')}/ws`);
  const localFrames = [];
  local.on('message', (data) => localFrames.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    local.once('open', resolve);
    local.once('error', reject);
  });
  const remote = await openViewer(edge);
  const localStates = recordStates(localFrames);
  const remoteStates = recordStates(remote.frames);

  // Let the (autoplaying) show run until both have seen several of the same updates.
  let common = [];
  await waitFor(
    () => {
      const a = localStates();
      const b = remoteStates();
      common = [...b.keys()].filter((key) => a.has(key));
      return common.length >= 4;
    },
    { timeoutMs: 20_000, what: 'four updates seen by both viewers' },
  );
  const a = localStates();
  const b = remoteStates();
  for (const key of common) expect([key, withoutVenue(JSON.parse(b.get(key)))]).toEqual([key, JSON.parse(a.get(key))]);
  expect(JSON.parse(b.get(common[0])).venue).toMatchObject({ status: 'live' });

  // A control action on the venue reaches the remote viewer too.
  const res = await fetch(`${server.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'pause' }),
  });
  expect(res.status).toBe(200);
  await waitFor(
    () => {
      const last = [...remoteStates().values()].at(-1);
      return last !== undefined && JSON.parse(last).transport === 'paused';
    },
    { what: 'the pause on the edge' },
  );
  const status = server.status();
  await waitFor(async () => (await showStats(edge)).seq === server.status().seq, { what: 'the edge to ack the last seq' });
  expect((await showStats(edge)).epoch).toBe(status.epoch);
  await waitFor(() => server.status().edge.lag === 0, { what: 'lag 0 in the server status' });
  expect(server.status().edge).toMatchObject({ enabled: true, connected: true, lastError: null });

  local.close();
  await remote.close();
});
