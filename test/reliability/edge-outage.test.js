// The link between the venue server and the edge drops for 30 s and returns: remote viewers are
// told the venue is lost (one snapshot of the edge's own, docs/reference/publisher-protocol.md#venue-status),
// converge within 2 s of its return, and no update is applied twice. The outage is made by a
// user-space proxy on the publisher's path that refuses /publish and cuts open connections.
import { startShowServer } from '../../local-server/src/server.js';
import { applyEnvelope } from '#core/stream/state-stream.js';
import { startJitterProxy } from '../audience/support/jitter-proxy.js';
import { startEdge, openViewer, waitFor, withoutVenue } from '../edge/helpers.js';
import { canonicalJson } from '../support/reconnecting-clients.js';

const OUTAGE_MS = 30_000;
let edge;
let proxy;
let server;
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await edge?.stop();
});

test('a 30 s edge outage: remote viewers converge within 2 s of the return, nothing applied twice', async () => {
  edge = await startEdge();
  proxy = await startJitterProxy({ targetPort: Number(new URL(edge.url).port) });
  server = await startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    autoplay: true,
    edgeUrl: proxy.url,
    edgeToken: edge.token,
  });
  server.show.engine.setTempo(240); // four updates a second: plenty missed during the outage
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'uplink connected' });

  const viewer = await openViewer(edge);
  let state = null;
  let epoch = null;
  let seq = null;
  let appliedTwice = 0;
  let read = 0;
  const follow = () => {
    for (; read < viewer.frames.length; read += 1) {
      const e = viewer.frames[read];
      if (e.type !== 'snapshot' && e.type !== 'delta') continue;
      if (e.type === 'delta' && e.epoch === epoch && e.seq <= seq) appliedTwice += 1;
      if (e.type === 'delta' && (e.epoch !== epoch || e.seq !== seq + 1)) continue; // a gap: wait for the snapshot
      state = applyEnvelope(state, e);
      epoch = e.epoch;
      seq = e.seq;
    }
    return { epoch, seq, state };
  };
  await waitFor(() => follow().seq !== null && seq >= 3, { timeoutMs: 10_000, what: 'remote viewer following' });

  proxy.block(['/publish']);
  proxy.destroyAll();
  await waitFor(() => server.status().edge.connected === false, { timeoutMs: 5_000, what: 'uplink down' });
  const seqAtDrop = follow().seq;
  const framesAtDrop = read;
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  follow();
  // The edge really was cut off: nothing of the venue's arrived, only the edge's own "venue lost".
  const duringOutage = viewer.frames.slice(framesAtDrop).filter((e) => e.type === 'snapshot' || e.type === 'delta');
  expect(duringOutage.map((e) => [e.type, e.data?.venue?.status])).toEqual([['snapshot', 'lost']]);
  expect(state.venue.status).toBe('lost');
  expect(server.show.stream.seq()).toBeGreaterThan(seqAtDrop + 60);

  proxy.block([]);
  const returnedAt = Date.now();
  const target = server.show.stream.seq();
  await waitFor(() => follow().seq >= target && epoch === server.show.stream.epoch() && state.venue?.status === 'live', {
    timeoutMs: 2_000,
    intervalMs: 20,
    what: 'remote viewer to converge',
  });
  const convergedMs = Date.now() - returnedAt;
  process.stdout.write(
    `edge outage: remote viewer converged ${convergedMs} ms after the link returned (${target - seqAtDrop} updates missed)\n`,
  );

  // Freeze and compare byte for byte with the venue server.
  server.show.engine.pause();
  const final = server.show.stream.seq();
  await waitFor(() => follow().seq === final, { timeoutMs: 3_000, what: 'final state at the edge' });
  expect(canonicalJson(withoutVenue(state))).toBe(canonicalJson(server.show.stream.state()));
  expect(appliedTwice).toBe(0);
  await viewer.close();
}, 90_000);
