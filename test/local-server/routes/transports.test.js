// The audience transports against a real server on port 0: WebSocket, SSE, polling, /time.
import net from 'node:net';
import { startShowServer } from '../../../local-server/src/server.js';
import { openWs, openSse, getJson, waitFor } from '../../support/clients.js';
import { jsonEqual } from '#core/protocol/merge-patch.js';

let server;
const token = 'test-token-123';
beforeAll(async () => {
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token, autoplay: true });
});
afterAll(() => server.close());

const current = () => JSON.parse(server.show.stream.snapshot().json);

describe('WebSocket', () => {
  test('snapshot first, then deltas with seq +1 that add up to the server state', async () => {
    const { ws, tracker } = await openWs(server.audienceUrl);
    await waitFor(() => tracker.envelopes.length >= 4, 5000, 'a few beats');
    expect(tracker.envelopes[0].type).toBe('snapshot');
    expect(tracker.envelopes.slice(1).every((e) => e.type === 'delta')).toBe(true);
    expect(tracker.gaps).toBe(0);
    const serverSeq = server.show.stream.seq();
    await waitFor(() => tracker.seq === serverSeq || tracker.seq > serverSeq);
    ws.close();
    const snap = current();
    if (snap.seq === tracker.seq) expect(jsonEqual(tracker.state, snap.data)).toBe(true);
    expect(tracker.envelopes[0]).toMatchObject({ v: 1, epoch: server.show.stream.epoch() });
    expect(Number.isInteger(tracker.envelopes[0].t)).toBe(true);
  });

  test('beats are published ahead of when they sound (position.at > t)', async () => {
    const { ws, tracker } = await openWs(server.audienceUrl);
    await waitFor(() => tracker.envelopes.filter((e) => e.data?.position?.at).length >= 3);
    for (const e of tracker.envelopes.slice(1)) if (e.data.position?.at) expect(e.data.position.at).toBeGreaterThan(e.t);
    ws.close();
  });

  test('ping gets a pong with the server time; resync gets a snapshot', async () => {
    const { ws, tracker, others } = await openWs(server.audienceUrl);
    const before = Date.now();
    ws.send(JSON.stringify({ type: 'ping', id: 7, c: 123.5 }));
    await waitFor(() => others.length === 1);
    expect(others[0]).toMatchObject({ type: 'pong', id: 7, c: 123.5 });
    expect(Math.abs(others[0].s - before)).toBeLessThan(1000);
    const snapshots = () => tracker.envelopes.filter((e) => e.type === 'snapshot').length;
    ws.send(JSON.stringify({ type: 'resync' }));
    await waitFor(() => snapshots() === 2, 2000, 'resync snapshot');
    ws.close();
  });

  test('pings bunched by the network (40 at once, then 14/s) are answered, not taken for a flood', async () => {
    const floods = async () => {
      const text = await (await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      return Number(/tutti_bad_input_total\{source="ws_flood"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const floodsBefore = await floods();
    const { ws, others } = await openWs(server.audienceUrl);
    // What a phone's learning phase looks like after a 3 s stall on a jittery path: its queued pings arrive together.
    for (let i = 0; i < 40; i += 1) ws.send(JSON.stringify({ type: 'ping', id: i, c: i }));
    for (let i = 40; i < 82; i += 1) {
      await new Promise((r) => setTimeout(r, 70));
      ws.send(JSON.stringify({ type: 'ping', id: i, c: i }));
    }
    await waitFor(() => others.length === 82, 3000, 'every pong');
    expect(ws.readyState).toBe(1);
    expect(await floods()).toBe(floodsBefore);
    ws.close();
  });

  test.each([
    ['binary frame', 1008, (ws) => ws.send(Buffer.from([1, 2, 3]))],
    ['not JSON', 1008, (ws) => ws.send('hello')],
    ['unknown type', 1008, (ws) => ws.send('{"type":"publish","data":{}}')],
    ['frame over 4 KiB', 1009, (ws) => ws.send(JSON.stringify({ type: 'ping', id: 1, c: 1, pad: 'x'.repeat(5000) }))],
    [
      'flood of pings',
      1008,
      (ws) => {
        for (let i = 0; i < 500; i += 1) ws.send(JSON.stringify({ type: 'ping', id: i, c: i }));
      },
    ],
  ])('%s closes that viewer only (code %s) and is counted', async (_name, code, misbehave) => {
    const bystander = await openWs(server.audienceUrl);
    const { ws, closed } = await openWs(server.audienceUrl);
    misbehave(ws);
    expect((await closed).code).toBe(code);
    const seq = bystander.tracker.seq;
    await waitFor(() => bystander.tracker.seq > seq, 3000, 'bystander keeps receiving');
    expect(bystander.ws.readyState).toBe(1);
    bystander.ws.close();
    const metrics = await (await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(metrics).toMatch(/tutti_bad_input_total\{source="ws_/);
  });
});

describe('SSE', () => {
  test('events carry id: seq; Last-Event-ID resumes with exactly the missed deltas', async () => {
    const first = await openSse(server.audienceUrl);
    expect(first.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await waitFor(() => first.tracker.envelopes.length >= 3);
    first.close();
    const lastId = first.ids.at(-1);
    expect(first.ids.slice(1)).toEqual(first.tracker.envelopes.slice(1).map((e) => e.seq));
    await waitFor(() => server.show.stream.seq() >= lastId + 2, 5000, 'the show to move on');
    const resumed = await openSse(server.audienceUrl, { headers: { 'last-event-id': String(lastId) } });
    await waitFor(() => resumed.tracker.envelopes.length >= 2);
    resumed.close();
    expect(resumed.tracker.envelopes[0]).toMatchObject({ type: 'delta', seq: lastId + 1 });
    expect(resumed.ids[0]).toBe(lastId + 1);
  });

  test('?since outside the replay window starts with a snapshot; a foreign epoch too', async () => {
    const old = await openSse(server.audienceUrl, { query: '?since=999999' });
    await waitFor(() => old.tracker.envelopes.length >= 1);
    old.close();
    expect(old.tracker.envelopes[0].type).toBe('snapshot');
    const other = await openSse(server.audienceUrl, { query: `?since=${server.show.stream.seq()}&epoch=not-this-one` });
    await waitFor(() => other.tracker.envelopes.length >= 1);
    other.close();
    expect(other.tracker.envelopes[0].type).toBe('snapshot');
  });

  test('a bad since is a 400 with a JSON error', async () => {
    const res = await getJson(`${server.audienceUrl}/sse?since=abc`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('BAD_SINCE');
  });
});

describe('polling', () => {
  test('no since → [snapshot]; since → the deltas after it; wait → long-poll', async () => {
    const first = await getJson(`${server.audienceUrl}/poll`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0].type).toBe('snapshot');
    const seq = first.body[0].seq;
    const waited = await getJson(`${server.audienceUrl}/poll?since=${seq}&wait=5000`);
    expect(waited.body.length).toBeGreaterThanOrEqual(1);
    expect(waited.body[0]).toMatchObject({ type: 'delta', seq: seq + 1 });
    waited.body.forEach((e, i) => expect(e.seq).toBe(seq + 1 + i));
  });

  test('a wait with nothing new returns [] after the wait', async () => {
    server.show.engine.pause();
    const seq = server.show.stream.seq();
    const started = Date.now();
    const res = await getJson(`${server.audienceUrl}/poll?since=${seq}&wait=300`);
    expect(res.body).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    server.show.engine.play();
  });

  test('since older than the window → snapshot; garbage query → 400', async () => {
    const res = await getJson(`${server.audienceUrl}/poll?since=99999999`);
    expect(res.body[0].type).toBe('snapshot');
    for (const q of ['since=-1', 'since=1e3', 'wait=abc', 'since=1&wait=-5', 'since=%00']) {
      expect((await getJson(`${server.audienceUrl}/poll?${q}`)).status).toBe(400);
    }
  });
});

describe('time, health and listener separation', () => {
  test('/time answers the server clock; /healthz is 200', async () => {
    const t = await getJson(`${server.audienceUrl}/time`);
    expect(typeof t.body.s).toBe('number');
    expect(Math.abs(t.body.s - Date.now())).toBeLessThan(1000);
    const h = await getJson(`${server.audienceUrl}/healthz`);
    expect(h.status).toBe(200);
    expect(h.body.ok).toBe(true);
  });

  test('no control route answers on the audience listener', async () => {
    for (const path of ['/api/status', '/metrics']) {
      const res = await fetch(`${server.audienceUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
    }
    const post = await fetch(`${server.audienceUrl}/api/transport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"action":"stop"}',
    });
    expect(post.status).toBe(404);
  });

  test('the control listener is bound to 127.0.0.1 only', async () => {
    const port = Number(new URL(server.controlUrl).port);
    expect(new URL(server.controlUrl).hostname).toBe('127.0.0.1');
    const reachable = (host) =>
      new Promise((resolve) => {
        const s = net.connect({ host, port }, () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1')).toBe(true);
    expect(await reachable('::1')).toBe(false);
  });
});
