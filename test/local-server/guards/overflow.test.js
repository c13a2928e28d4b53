// --max-clients on a real server: beyond the cap every transport turns new viewers away with
// 503 + Retry-After (the WebSocket handshake included) when no edge is set, or sends them to the
// edge's public URL (page and poll 307, socket close 1013 with the URL) when one is.
import { WebSocket } from 'ws';
import { startShow } from '../../support/show.js';
import { openWs, waitFor, wsUrl } from '../../support/clients.js';

/** The HTTP answer to a WebSocket handshake that is refused (or null when it opened). */
function handshake(baseUrl) {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl(baseUrl), { perMessageDeflate: false });
    ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], location: res.headers.location });
      ws.terminate();
    });
    ws.on('close', (code, reason) => resolve({ closeCode: code, reason: reason.toString() }));
    ws.on('error', () => {});
  });
}

const overflowCount = async (server) => {
  const text = await (
    await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${server.token ?? 'test-token'}` } })
  ).text();
  return [...text.matchAll(/^tutti_overflow_total\{transport="(\w+)"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[2]), 0);
};

describe('no edge: 503 + Retry-After everywhere', () => {
  let server;
  beforeAll(async () => {
    server = await startShow({ maxClients: 2 });
  });
  afterAll(() => server.close());

  test('two viewers fit; the third is turned away on every transport; a leaving viewer frees a place', async () => {
    const a = await openWs(server.audienceUrl);
    const b = await openWs(server.audienceUrl);
    await waitFor(() => server.show.hub.counts().ws === 2);

    expect(await handshake(server.audienceUrl)).toEqual({ status: 503, retryAfter: '10', location: undefined });
    for (const path of ['/', '/sse', '/poll']) {
      const res = await fetch(`${server.audienceUrl}${path}`, { redirect: 'manual' });
      expect({ path, status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ path, status: 503, retryAfter: '10' });
      expect(await res.json()).toMatchObject({ error: 'FULL' });
    }
    // A polling viewer already in (it sends since) keeps being served, beyond the cap.
    const seq = server.show.stream.seq();
    expect((await fetch(`${server.audienceUrl}/poll?since=${seq}`)).status).toBe(200);
    expect(await overflowCount(server)).toBe(4);
    expect(server.show.hub.counts()).toMatchObject({ ws: 2, poll: 1 });
    // The two viewers in never noticed.
    const before = a.tracker.seq;
    await waitFor(() => a.tracker.seq > before && b.tracker.seq > before, 3000, 'viewers keep receiving');

    // The polling viewer counts for 10 s after its last poll, so with it and b in, the show is still full.
    a.ws.close();
    await waitFor(() => server.show.hub.counts().ws === 1);
    expect(server.show.hub.counts()).toMatchObject({ ws: 1, poll: 1, total: 2 });
    expect((await handshake(server.audienceUrl)).status).toBe(503);
    b.ws.close();
    await waitFor(() => server.show.hub.counts().ws === 0);
    const c = await openWs(server.audienceUrl);
    await waitFor(() => c.tracker.envelopes.length >= 1, 3000, 'a snapshot for the new viewer');
    c.ws.close();
  });
});

describe('with an edge: new viewers go to its public URL', () => {
  let server;
  const edge = 'http://127.0.0.1:9/show'; // nothing listens there: only the redirect target matters
  beforeAll(async () => {
    server = await startShow({ maxClients: 1, edgeUrl: edge, edgeToken: 'edge-token' });
  });
  afterAll(() => server.close());

  test('page and poll answer 307 to the edge; a socket is closed 1013 with the edge URL as reason', async () => {
    const a = await openWs(server.audienceUrl);
    await waitFor(() => server.show.hub.counts().ws === 1);
    const page = await fetch(`${server.audienceUrl}/?from=qr`, { redirect: 'manual' });
    expect({ status: page.status, location: page.headers.get('location') }).toEqual({ status: 307, location: `${edge}/?from=qr` });
    const poll = await fetch(`${server.audienceUrl}/poll`, { redirect: 'manual' });
    expect({ status: poll.status, location: poll.headers.get('location') }).toEqual({ status: 307, location: `${edge}/poll` });
    // The query goes along: a lean viewer sent to the edge stays on the lean stream there.
    const leanPoll = await fetch(`${server.audienceUrl}/poll?stream=lean&wait=5000`, { redirect: 'manual' });
    expect(leanPoll.headers.get('location')).toBe(`${edge}/poll?stream=lean&wait=5000`);
    const leanSse = await fetch(`${server.audienceUrl}/sse?stream=lean`, { redirect: 'manual' });
    expect({ status: leanSse.status, location: leanSse.headers.get('location') }).toEqual({
      status: 307,
      location: `${edge}/sse?stream=lean`,
    });
    expect(await handshake(server.audienceUrl)).toEqual({ closeCode: 1013, reason: `${edge}/` });
    a.ws.close();
  });
});
