// Viewers on /ws: spread over shards, late joiners, the frames a viewer may send, the cap.

import { delta, openPublisher, openSocket, openViewer, publish, showStats, snapshot, startEdge, waitFor } from './helpers.js';

const CAPACITY = 3;
const SHARDS = 3;
let edge;
let publisher;

beforeAll(async () => {
  edge = await startEdge({ vars: { SHARD_CAPACITY: CAPACITY, SHARD_COUNT: SHARDS } });
  ({ publisher } = await openPublisher(edge));
  await publish(publisher, snapshot('fan', 1, { title: 'Fan-out', beat: 1 }));
});

afterAll(async () => {
  await publisher?.close();
  await edge?.stop();
});

describe('fan-out', () => {
  const viewers = [];

  afterAll(async () => {
    await Promise.all(viewers.map((v) => v.close()));
  });

  test('viewers fill the shards in order and every one of them gets every update, same bytes', async () => {
    for (let i = 0; i < 7; i += 1) viewers.push(await openViewer(edge));
    const shards = viewers.map((v) => v.state.shard);
    expect(shards).toEqual(['0', '0', '0', '1', '1', '1', '2']);

    for (const v of viewers) expect(await v.next()).toMatchObject({ type: 'snapshot', epoch: 'fan', seq: 1 });
    const sent = [];
    for (let seq = 2; seq <= 6; seq += 1) {
      const frame = delta('fan', seq, { beat: seq });
      sent.push(frame);
      expect(await publish(publisher, frame)).toMatchObject({ type: 'ack', seq });
    }
    for (const v of viewers) {
      for (let i = 0; i < sent.length; i += 1) await v.next();
      // The publisher's bytes, forwarded unchanged.
      expect(v.raw.slice(1)).toEqual(sent.map((frame) => JSON.stringify(frame)));
    }
    // The root learns each shard's count from the push replies; the next ack carries the total.
    expect(await publish(publisher, delta('fan', 7, { beat: 7 }))).toMatchObject({ type: 'ack', seq: 7, viewers: 7 });
    const stats = await showStats(edge);
    expect(stats.shards).toEqual({ 0: 3, 1: 3, 2: 1 });
    expect(stats.viewers).toBe(7);
  });

  test('when every shard is full the next viewer gets 503 with Retry-After', async () => {
    viewers.push(await openViewer(edge), await openViewer(edge));
    expect(viewers.at(-1).state.shard).toBe('2');
    const extra = openSocket(`${edge.wsUrl}/ws`);
    await expect(extra.opened).rejects.toThrow();
    expect(extra.state.status).toBe(503);
    await extra.closed;
    expect(extra.state.headers['retry-after']).toBe('5');
    expect(JSON.parse(extra.state.body).error).toBe('EDGE_FULL');

    // A place frees up: the next viewer gets it.
    await viewers.shift().close();
    await waitFor(
      async () => {
        const v = openSocket(`${edge.wsUrl}/ws`);
        try {
          await v.opened;
          viewers.push(v);
          return true;
        } catch {
          return false;
        }
      },
      { what: 'a free place after a viewer left' },
    );
    expect(viewers.at(-1).state.shard).toBe('0');
  });
});

describe('a single viewer', () => {
  test('a late joiner gets the latest snapshot first, then live deltas', async () => {
    const before = await openViewer(edge);
    await before.next((f) => f.type === 'snapshot');
    const stats = await showStats(edge);
    let seq = stats.seq;
    await publish(publisher, delta('fan', ++seq, { late: 'first' }));
    await publish(publisher, delta('fan', ++seq, { late: 'second' }));
    await before.close();

    const late = await openViewer(edge);
    const first = await late.next();
    expect(first).toMatchObject({ type: 'snapshot', epoch: 'fan', seq, data: { title: 'Fan-out', late: 'second' } });
    await publish(publisher, delta('fan', seq + 1, { late: 'live' }));
    expect(await late.next()).toMatchObject({ type: 'delta', seq: seq + 1, data: { late: 'live' } });
    await late.close();
  });

  test('ping gets a pong with the server time; resync gets a fresh snapshot', async () => {
    const viewer = await openViewer(edge);
    const snap = await viewer.next();
    const before = Date.now();
    viewer.send({ type: 'ping', id: 7, c: 12345 });
    const pong = await viewer.next((f) => f.type === 'pong');
    expect(pong).toEqual({ type: 'pong', id: 7, c: 12345, s: expect.any(Number) });
    expect(pong.s).toBeGreaterThanOrEqual(before - 5000);
    expect(pong.s).toBeLessThanOrEqual(Date.now() + 5000);
    expect('seq' in pong).toBe(false);

    viewer.send({ type: 'resync' });
    const again = await viewer.next((f) => f.type === 'snapshot');
    expect(again).toMatchObject({ epoch: snap.epoch, seq: snap.seq, data: snap.data });
    await viewer.close();
  });

  test('the plain-text keepalive "ping" is answered "pong" by the runtime', async () => {
    const viewer = await openViewer(edge);
    await viewer.next();
    // Bypass the JSON recorder for this frame.
    viewer.ws.removeAllListeners('message');
    const text = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to "ping"')), 5000);
      viewer.ws.once('message', (data) => {
        clearTimeout(timer);
        resolve(String(data));
      });
    });
    viewer.ws.send('ping');
    expect(await text).toBe('pong');
    await viewer.close();
  });

  test('an unknown frame closes with 1008, a frame over 4 KiB with 1009', async () => {
    const a = await openViewer(edge);
    a.send({ type: 'hello-there' });
    expect(await a.closed).toBe(1008);
    const b = await openViewer(edge);
    b.send({ type: 'ping', id: 1, c: 1, pad: 'x'.repeat(5000) });
    expect(await b.closed).toBe(1009);
    const c = await openViewer(edge);
    c.send('not json at all');
    expect(await c.closed).toBe(1008);
  });

  test('a new epoch reaches connected viewers as a snapshot', async () => {
    const viewer = await openViewer(edge);
    await viewer.next();
    await publish(publisher, snapshot('fan-2', 0, { title: 'Second piece' }));
    expect(await viewer.next()).toMatchObject({ type: 'snapshot', epoch: 'fan-2', seq: 0, data: { title: 'Second piece' } });
    await viewer.close();
  });
});

describe('joining while updates stream in', () => {
  test('every viewer sees snapshot first, then an unbroken run of deltas up to the last one', async () => {
    const epoch = `busy-${Date.now()}`;
    await publish(publisher, snapshot(epoch, 0, { n: 0 }));
    let seq = 0;
    let streaming = true;
    const pump = (async () => {
      // Bounded: stops when the joins are done (at most 400 updates).
      while (streaming && seq < 400) {
        seq += 1;
        await publish(publisher, delta(epoch, seq, { n: seq }));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const joined = [];
    // Capacity 3 × 3 shards = 9 places: join, leave, join again, so shards attach and detach under load.
    for (let round = 0; round < 4; round += 1) {
      const batch = [];
      for (let i = 0; i < 9; i += 1) batch.push(openViewer(edge));
      const opened = await Promise.all(batch);
      joined.push(...opened);
      await new Promise((r) => setTimeout(r, 60));
      if (round < 3) await Promise.all(opened.map((v) => v.close()));
    }
    streaming = false;
    await pump;
    await publish(publisher, delta(epoch, ++seq, { n: 'last' }));
    const last = joined.slice(-9);
    for (const v of last) await v.next((f) => f.seq === seq, 10_000);
    for (const v of joined) {
      const frames = v.frames.filter((f) => f.epoch === epoch);
      expect(frames[0].type).toBe('snapshot');
      let at = frames[0].seq;
      for (const f of frames.slice(1)) {
        // A snapshot may stand in for missed deltas; a delta must always be the next one.
        if (f.type === 'delta') expect(f.seq).toBe(at + 1);
        else expect(f.seq).toBeGreaterThanOrEqual(at);
        at = f.seq;
      }
    }
    for (const v of last) expect(v.frames.at(-1)).toMatchObject({ seq, data: { n: 'last' } });
    await Promise.all(last.map((v) => v.close()));
  });
});
