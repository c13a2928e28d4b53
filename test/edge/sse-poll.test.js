// /poll and /sse on the edge: snapshot or deltas by resume point, long-poll, live events.
// Both read the Worker's short-lived cache of the root's feed (FEED_TTL_MS), never the shards.

import { delta, openPublisher, publish, readSse, snapshot, startEdge, waitFor } from './helpers.js';

const TTL = 50;
let edge;
let publisher;

/** @param {string} path */
async function getJson(path) {
  const res = await fetch(`${edge.url}${path}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  return res.json();
}

beforeAll(async () => {
  edge = await startEdge({ vars: { FEED_TTL_MS: TTL, REPLAY_LIMIT: 8 } });
  ({ publisher } = await openPublisher(edge));
  await publish(publisher, snapshot('sp', 0, { title: 'Poll me', beat: 0 }));
  for (let seq = 1; seq <= 10; seq += 1) await publish(publisher, delta('sp', seq, { beat: seq }));
  await waitFor(async () => (await getJson('/poll'))[0]?.seq === 10, { what: 'the cache to reach seq 10' });
});

afterAll(async () => {
  await publisher?.close();
  await edge?.stop();
});

describe('/poll', () => {
  test('?epoch= of another epoch: the snapshot even at the same seq (as on the venue)', async () => {
    expect(await getJson('/poll?since=10&epoch=sp')).toEqual([]);
    expect(await getJson('/poll?since=10&epoch=elsewhere')).toMatchObject([{ type: 'snapshot', epoch: 'sp', seq: 10 }]);
    const { events } = await readSse(`${edge.url}/sse?since=10&epoch=elsewhere`, { count: 1, timeoutMs: 5000 });
    expect(events[0]?.data).toMatchObject({ type: 'snapshot', epoch: 'sp', seq: 10 });
  });

  test('without since: the snapshot', async () => {
    const body = await getJson('/poll');
    expect(body).toEqual([
      {
        v: 1,
        type: 'snapshot',
        epoch: 'sp',
        seq: 10,
        t: expect.any(Number),
        data: { title: 'Poll me', beat: 10, venue: { status: 'live', since: expect.any(Number) } },
      },
    ]);
  });

  test('with since inside the replay window: exactly the deltas after it', async () => {
    const body = await getJson('/poll?since=6');
    expect(body.map((e) => [e.type, e.seq, e.data.beat])).toEqual([
      ['delta', 7, 7],
      ['delta', 8, 8],
      ['delta', 9, 9],
      ['delta', 10, 10],
    ]);
  });

  test('with since older than the window (8 deltas kept) or ahead of the head: the snapshot', async () => {
    expect((await getJson('/poll?since=1')).map((e) => [e.type, e.seq])).toEqual([['snapshot', 10]]);
    expect((await getJson('/poll?since=2')).map((e) => [e.type, e.seq])).toEqual([
      ['delta', 3],
      ['delta', 4],
      ['delta', 5],
      ['delta', 6],
      ['delta', 7],
      ['delta', 8],
      ['delta', 9],
      ['delta', 10],
    ]);
    expect((await getJson('/poll?since=99')).map((e) => e.type)).toEqual(['snapshot']);
  });

  test('with a since that is not a seq: 400 BAD_SINCE, as on the venue (README.md, "Errors")', async () => {
    const res = await fetch(`${edge.url}/poll?since=abc`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'BAD_SINCE', message: expect.stringMatching(/non-negative integer/) });
  });

  test('with since = current seq and no wait: []', async () => {
    expect(await getJson('/poll?since=10')).toEqual([]);
  });

  test('long-poll: waits until something newer exists, or answers [] when wait passes', async () => {
    const started = Date.now();
    expect(await getJson('/poll?since=10&wait=400')).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    const pending = getJson('/poll?since=10&wait=10000');
    await new Promise((r) => setTimeout(r, 300));
    await publish(publisher, delta('sp', 11, { beat: 11 }));
    const body = await pending;
    expect(body.map((e) => [e.type, e.seq, e.data.beat])).toEqual([['delta', 11, 11]]);
  });

  test('is cacheable by nobody and readable cross-origin', async () => {
    const res = await fetch(`${edge.url}/poll?since=0`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    await res.arrayBuffer();
  });
});

describe('/sse', () => {
  test('a fresh stream starts with the snapshot, id = seq, then live deltas', async () => {
    const seq = (await getJson('/poll'))[0].seq;
    const reading = readSse(`${edge.url}/sse`, {
      count: 3,
      onOpen: () => {
        setTimeout(async () => {
          await publish(publisher, delta('sp', seq + 1, { beat: 'live-1' }));
          await publish(publisher, delta('sp', seq + 2, { beat: 'live-2' }));
        }, 300);
      },
    });
    const { events, contentType } = await reading;
    expect(contentType).toMatch(/text\/event-stream/);
    expect(events.map((e) => [e.id, e.data.type, e.data.seq])).toEqual([
      [String(seq), 'snapshot', seq],
      [String(seq + 1), 'delta', seq + 1],
      [String(seq + 2), 'delta', seq + 2],
    ]);
    expect(events[2].data.data).toEqual({ beat: 'live-2' });
  });

  test('resumes from Last-Event-ID with just the missed deltas', async () => {
    const seq = (await getJson('/poll'))[0].seq;
    const { events } = await readSse(`${edge.url}/sse`, { count: 2, headers: { 'last-event-id': String(seq - 2) } });
    expect(events.map((e) => [e.id, e.data.type])).toEqual([
      [String(seq - 1), 'delta'],
      [String(seq), 'delta'],
    ]);
  });

  test('resumes from ?since as well; a point outside the window gets the snapshot', async () => {
    const seq = (await getJson('/poll'))[0].seq;
    const inside = await readSse(`${edge.url}/sse?since=${seq - 1}`, { count: 1 });
    expect(inside.events.map((e) => [e.id, e.data.type])).toEqual([[String(seq), 'delta']]);
    const outside = await readSse(`${edge.url}/sse?since=0`, { count: 1 });
    expect(outside.events.map((e) => [e.id, e.data.type])).toEqual([[String(seq), 'snapshot']]);
  });

  test('a new epoch mid-stream arrives as a snapshot', async () => {
    const seq = (await getJson('/poll'))[0].seq;
    const { events } = await readSse(`${edge.url}/sse?since=${seq}`, {
      count: 1,
      onOpen: () => setTimeout(() => publish(publisher, snapshot('sp-2', 0, { title: 'Next' })), 300),
    });
    expect(events.map((e) => [e.id, e.data.type, e.data.epoch])).toEqual([['0', 'snapshot', 'sp-2']]);
  });
});

describe('/time and /healthz', () => {
  test('/time gives the server clock', async () => {
    const before = Date.now();
    const body = await getJson('/time');
    expect(Object.keys(body)).toEqual(['s']);
    expect(body.s).toBeGreaterThanOrEqual(before - 5000);
    expect(body.s).toBeLessThanOrEqual(Date.now() + 5000);
  });

  test('/healthz answers 200 with a small JSON body', async () => {
    expect(await getJson('/healthz')).toEqual({ ok: true, service: 'tutti-edge', venue: 'live', venueSince: expect.any(Number) });
  });

  test('other methods on audience routes are refused', async () => {
    const res = await fetch(`${edge.url}/poll`, { method: 'POST', body: '[]' });
    expect(res.status).toBe(405);
  });

  test('the audience app is served at /', async () => {
    const res = await fetch(`${edge.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });
});
