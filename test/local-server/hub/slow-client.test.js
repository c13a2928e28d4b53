// A viewer that stops reading must not grow server memory or slow anyone else: its deltas are
// dropped, it gets one fresh snapshot when it drains, or it is closed after a timeout.
import { startShowServer } from '../../../local-server/src/server.js';
import { openWs, waitFor } from '../../support/clients.js';

const bigState = (n) => ({ score: { id: 'x' }, n, blob: `${n}`.padEnd(64 * 1024, 'x') });

async function pump(server, from, count) {
  for (let i = from; i < from + count; i += 1) {
    const update = server.show.stream.update(bigState(i));
    server.show.hub.broadcast(update.seq, update.json);
    if (i % 20 === 0) await new Promise((r) => setImmediate(r));
  }
}

test('a client that stops reading is coalesced to one snapshot when it drains; others get everything', async () => {
  const server = await startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    hubOptions: { maxBufferedBytes: 128 * 1024 },
  });
  try {
    const healthy = await openWs(server.audienceUrl, { maxPayload: 1 << 20 });
    const slow = await openWs(server.audienceUrl, { maxPayload: 1 << 20 });
    await waitFor(() => healthy.tracker.seq !== null && slow.tracker.seq !== null);
    slow.ws._socket.pause(); // the phone stops reading: kernel buffers fill, then the server's

    await pump(server, 1, 300); // ~19 MB of deltas in total
    const last = server.show.stream.seq();
    await waitFor(() => healthy.tracker.seq === last, 10000, 'healthy client to get every delta');
    expect(healthy.tracker.gaps).toBe(0);

    // The server holds at most about the threshold plus one frame for the slow one.
    expect(server.show.hub.maxBuffered()).toBeLessThanOrEqual(128 * 1024 + 66 * 1024);
    const metrics = await server.metrics.registry.getSingleMetricAsString('tutti_frames_dropped_total');
    expect(metrics).toMatch(/transport="ws"\} [1-9]/);

    slow.ws._socket.resume();
    await waitFor(() => slow.tracker.seq === last, 10000, 'slow client to catch up');
    const snapshots = slow.tracker.envelopes.filter((e) => e.type === 'snapshot');
    expect(snapshots.length).toBe(2); // the join snapshot and the catch-up snapshot
    expect(slow.tracker.envelopes.length).toBeLessThan(300); // stale deltas were skipped
    expect(slow.tracker.state).toEqual(healthy.tracker.state);
    healthy.ws.close();
    slow.ws.close();
  } finally {
    await server.close();
  }
});

test('a client stuck longer than the timeout is closed; the rest are unaffected', async () => {
  const server = await startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    hubOptions: { maxBufferedBytes: 64 * 1024, staleTimeoutMs: 200 },
  });
  try {
    const healthy = await openWs(server.audienceUrl, { maxPayload: 1 << 20 });
    const stuck = await openWs(server.audienceUrl, { maxPayload: 1 << 20 });
    await waitFor(() => stuck.tracker.seq !== null);
    stuck.ws._socket.pause();
    await pump(server, 1, 200);
    await new Promise((r) => setTimeout(r, 300));
    await pump(server, 201, 5);
    await waitFor(() => server.show.hub.counts().ws === 1, 3000, 'the stuck client to be closed');
    const closed = await server.metrics.registry.getSingleMetricAsString('tutti_slow_clients_closed_total');
    expect(closed).toMatch(/transport="ws"\} 1/);
    await waitFor(() => healthy.tracker.seq === server.show.stream.seq());
    expect(healthy.tracker.gaps).toBe(0);
    healthy.ws.close();
  } finally {
    await server.close();
  }
});

test('a dead peer (no FIN, no pong: half-open TCP) is closed by the liveness ping even when the show is quiet', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 't', hubOptions: { sweepMs: 200 } });
  try {
    const alive = await openWs(server.audienceUrl);
    const dead = await openWs(server.audienceUrl);
    await waitFor(() => server.show.hub.counts().ws === 2);
    dead.ws._socket.pause(); // it never reads the pings, so it never answers them
    await waitFor(() => server.show.hub.counts().ws === 1, 3000, 'the dead peer to be closed');
    await new Promise((r) => setTimeout(r, 700)); // several more sweeps: the live one stays
    expect(alive.ws.readyState).toBe(1);
    expect(server.show.hub.counts().ws).toBe(1);
    alive.ws.close();
  } finally {
    await server.close();
  }
});
