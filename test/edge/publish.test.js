// The root object as the single writer: who may publish, which frames it accepts, and that what
// it accepted survives a restart of workerd.

import { ALIVE_EVERY_MS, EdgeMessage, PublisherClose } from '#core/protocol/publisher.js';
import { delta, openPublisher, openSocket, openViewer, publish, showStats, snapshot, startEdge } from './helpers.js';

let edge;

beforeAll(async () => {
  edge = await startEdge();
});

afterAll(async () => {
  await edge?.stop();
});

describe('publish auth', () => {
  test('a WebSocket to /publish without a token is refused with 401', async () => {
    const socket = openSocket(`${edge.wsUrl}/publish`);
    await expect(socket.opened).rejects.toThrow();
    expect(socket.state.status).toBe(401);
  });

  test('a WebSocket to /publish with a wrong token is refused with 401', async () => {
    const socket = openSocket(`${edge.wsUrl}/publish`, { headers: { authorization: `Bearer ${edge.token}x` } });
    await expect(socket.opened).rejects.toThrow();
    expect(socket.state.status).toBe(401);
  });

  test('POST and GET to /publish without the right token get a JSON 401', async () => {
    const body = JSON.stringify(snapshot('evil', 1, { hacked: true }));
    for (const init of [
      { method: 'POST', body },
      { method: 'POST', body, headers: { authorization: 'Bearer nope' } },
      { method: 'POST', body, headers: { authorization: edge.token } }, // not a Bearer header
      { method: 'GET' },
    ]) {
      const res = await fetch(`${edge.url}/publish`, init);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('UNAUTHORIZED');
    }
    expect((await showStats(edge)).epoch).not.toBe('evil');
  });

  test('a viewer cannot publish: an envelope sent on /ws closes it with 1008 and changes nothing', async () => {
    const { publisher } = await openPublisher(edge);
    expect(await publish(publisher, snapshot('auth', 1, { who: 'publisher' }))).toMatchObject({ type: 'ack', seq: 1 });
    const viewer = await openViewer(edge);
    await viewer.next((f) => f.type === 'snapshot');
    viewer.send(snapshot('auth', 2, { who: 'viewer' }));
    expect(await viewer.closed).toBe(1008);
    const stats = await showStats(edge);
    expect(stats).toMatchObject({ epoch: 'auth', seq: 1 });
    await publisher.close();
  });

  test('POST /publish with the token applies a frame and answers with the ack', async () => {
    const res = await fetch(`${edge.url}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${edge.token}` },
      body: JSON.stringify(snapshot('post', 5, { via: 'post' })),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'ack', epoch: 'post', seq: 5 });
  });
});

describe('publisher frames', () => {
  let publisher;

  beforeAll(async () => {
    ({ publisher } = await openPublisher(edge));
  });

  afterAll(async () => {
    await publisher.close();
  });

  test('the hello tells a new connection where the edge stands', async () => {
    await publish(publisher, snapshot('hello', 10, { n: 10 }));
    const second = await openPublisher(edge);
    expect(second.hello).toEqual({ type: EdgeMessage.HELLO, epoch: 'hello', seq: 10, aliveMs: ALIVE_EVERY_MS });
    // One publisher at a time: the older connection is closed as replaced.
    expect(await publisher.closed).toBe(PublisherClose.REPLACED);
    publisher = second.publisher;
  });

  test('deltas that chain are applied and acked in order', async () => {
    expect(await publish(publisher, snapshot('chain', 1, { a: 1, list: { x: 1 } }))).toMatchObject({ type: 'ack', epoch: 'chain', seq: 1 });
    expect(await publish(publisher, delta('chain', 2, { a: 2 }))).toMatchObject({ type: 'ack', seq: 2 });
    expect(await publish(publisher, delta('chain', 3, { list: { x: null, y: 2 } }))).toMatchObject({ type: 'ack', seq: 3 });
    await new Promise((r) => setTimeout(r, 300)); // past the feed cache's TTL
    const [snap] = await (await fetch(`${edge.url}/poll`)).json();
    expect(snap).toMatchObject({ type: 'snapshot', epoch: 'chain', seq: 3, data: { a: 2, list: { y: 2 } } });
  });

  test('a gap, a replayed seq and a foreign epoch are answered with resync and not applied', async () => {
    await publish(publisher, snapshot('rules', 1, { v: 1 }));
    const before = (await showStats(edge)).frames.resync;

    const gap = await publish(publisher, delta('rules', 3, { v: 3 }));
    expect(gap).toMatchObject({ type: 'resync', epoch: 'rules', seq: 1 });
    expect(gap.reason).toMatch(/gap/);

    expect(await publish(publisher, delta('rules', 2, { v: 2 }))).toMatchObject({ type: 'ack', seq: 2 });
    const replayed = await publish(publisher, delta('rules', 2, { v: 'again' }));
    expect(replayed).toMatchObject({ type: 'resync', seq: 2 });
    expect(replayed.reason).toMatch(/already applied/);
    const older = await publish(publisher, delta('rules', 1, { v: 'older' }));
    expect(older).toMatchObject({ type: 'resync', seq: 2 });

    const foreign = await publish(publisher, delta('other-epoch', 3, { v: 'foreign' }));
    expect(foreign).toMatchObject({ type: 'resync', epoch: 'rules', seq: 2 });
    expect(foreign.reason).toMatch(/epoch/);

    const stats = await showStats(edge);
    expect(stats).toMatchObject({ epoch: 'rules', seq: 2 });
    expect(stats.frames.resync - before).toBe(4);
    // The state is the one from the accepted frames only.
    await new Promise((r) => setTimeout(r, 300));
    const [snap] = await (await fetch(`${edge.url}/poll`)).json();
    expect(snap.data).toEqual({ v: 2, venue: { status: 'live', since: expect.any(Number) } });
  });

  test('a snapshot may start a new epoch or jump ahead; an older one of the same epoch is refused', async () => {
    await publish(publisher, snapshot('jump', 4, { at: 4 }));
    expect(await publish(publisher, snapshot('jump', 9, { at: 9 }))).toMatchObject({ type: 'ack', seq: 9 });
    expect(await publish(publisher, snapshot('jump', 9, { at: 9 }))).toMatchObject({ type: 'ack', seq: 9 });
    expect(await publish(publisher, snapshot('jump', 7, { at: 7 }))).toMatchObject({ type: 'error', code: 'STALE' });
    expect(await publish(publisher, snapshot('jump-2', 0, { at: 0 }))).toMatchObject({ type: 'ack', epoch: 'jump-2', seq: 0 });
  });

  test('a delta before any state asks for a snapshot', async () => {
    const fresh = await startEdge();
    try {
      const { publisher: p, hello } = await openPublisher(fresh);
      expect(hello).toEqual({ type: 'hello', epoch: null, seq: null, aliveMs: 1000 });
      expect(await publish(p, delta('x', 1, { a: 1 }))).toMatchObject({ type: 'resync', epoch: null, seq: null });
      await p.close();
    } finally {
      await fresh.stop();
    }
  });

  test('malformed frames get BAD_FRAME, oversize ones TOO_BIG, and both are counted', async () => {
    await publish(publisher, snapshot('bad', 1, { ok: true }));
    const before = (await showStats(edge)).frames;
    const cases = [
      'not json',
      '[]',
      JSON.stringify({ v: 2, type: 'delta', epoch: 'bad', seq: 2, t: 1, data: {} }),
      JSON.stringify({ v: 1, type: 'snapshot', epoch: 'bad', seq: 2, t: 1, data: [1] }),
      JSON.stringify({ v: 1, type: 'delta', epoch: 'bad', seq: -1, t: 1, data: {} }),
    ];
    for (const text of cases) {
      const reply = await publish(publisher, text);
      expect(reply).toMatchObject({ type: 'error', code: 'BAD_FRAME' });
      expect(reply.message.length).toBeGreaterThan(0);
    }
    publisher.ws.send(Buffer.from(JSON.stringify(delta('bad', 2, { binary: true }))));
    expect(await publisher.next()).toMatchObject({ type: 'error', code: 'BAD_FRAME', message: expect.stringMatching(/binary/) });
    const big = await publish(publisher, delta('bad', 2, { blob: 'x'.repeat(300 * 1024) }));
    expect(big).toMatchObject({ type: 'error', code: 'TOO_BIG' });
    const after = await showStats(edge);
    expect(after.frames.badFrame - before.badFrame).toBe(cases.length + 1);
    expect(after.frames.tooBig - before.tooBig).toBe(1);
    expect(after).toMatchObject({ epoch: 'bad', seq: 1 });
    // The connection is still usable and the stream still chains.
    expect(await publish(publisher, delta('bad', 2, { ok: false }))).toMatchObject({ type: 'ack', seq: 2 });
    // Oversize over POST too.
    const res = await fetch(`${edge.url}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${edge.token}` },
      body: JSON.stringify(delta('bad', 3, { blob: 'y'.repeat(300 * 1024) })),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('TOO_BIG');
  });
});

describe('persistence', () => {
  test('the snapshot, seq and replay window survive a restart of workerd', async () => {
    const { publisher } = await openPublisher(edge);
    await publish(publisher, snapshot('durable', 1, { title: 'kept', n: 1 }));
    for (let seq = 2; seq <= 6; seq += 1) {
      expect(await publish(publisher, delta('durable', seq, { n: seq }))).toMatchObject({ type: 'ack', seq });
    }
    await publisher.close();

    await edge.restart();

    const again = await openPublisher(edge);
    expect(again.hello).toEqual({ type: 'hello', epoch: 'durable', seq: 6, aliveMs: 1000 });
    const [snap] = await (await fetch(`${edge.url}/poll`)).json();
    expect(snap).toMatchObject({ type: 'snapshot', epoch: 'durable', seq: 6, data: { title: 'kept', n: 6 } });
    const deltas = await (await fetch(`${edge.url}/poll?since=3`)).json();
    expect(deltas.map((d) => [d.type, d.seq, d.data.n])).toEqual([
      ['delta', 4, 4],
      ['delta', 5, 5],
      ['delta', 6, 6],
    ]);
    // It keeps chaining from where it was: nothing applied twice, nothing lost.
    expect(await publish(again.publisher, delta('durable', 6, { n: 'dup' }))).toMatchObject({ type: 'resync', seq: 6 });
    expect(await publish(again.publisher, delta('durable', 7, { n: 7 }))).toMatchObject({ type: 'ack', seq: 7 });
    const viewer = await openViewer(edge);
    expect(await viewer.next()).toMatchObject({ type: 'snapshot', seq: 7, data: { title: 'kept', n: 7 } });
    await viewer.close();
    await again.publisher.close();
  });
});
