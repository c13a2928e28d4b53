// More than one show per edge deployment (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): every route
// exists again under /s/<show>/ with a root and shards of its own. Three publishers (show a,
// show b, the default show) publish at once; each show's viewers (WS, SSE, poll), media and shard
// capacity are its own, the default show keeps its URLs, and bad show names are refused.

import { delta, openPublisher, openSocket, postVote, publish, readSse, snapshot, startEdge, waitFor, withoutVenue } from './helpers.js';

let edge;
const publishers = {};
const sockets = [];

/** The same edge as seen from one show's folder (what openPublisher/openSocket need). */
const at = (prefix) => ({ url: `${edge.url}${prefix}`, wsUrl: `${edge.wsUrl}${prefix}`, token: edge.token });
const PREFIX = { a: '/s/a', b: '/s/b', main: '' };

async function viewerOf(prefix) {
  const viewer = openSocket(`${edge.wsUrl}${prefix}/ws`);
  sockets.push(viewer);
  await viewer.opened;
  return viewer;
}

async function getJson(path) {
  // /healthz?deep=1 needs the publish token (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects)
  const res = await fetch(`${edge.url}${path}`, { headers: { authorization: `Bearer ${edge.token}` } });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  // One shard of 3 sockets per show: enough to show that capacity is counted per show.
  edge = await startEdge({ vars: { SHOWS: '*', SHARD_CAPACITY: 3, SHARD_COUNT: 1, FEED_TTL_MS: 50 } });
  for (const [name, prefix] of Object.entries(PREFIX)) {
    ({ publisher: publishers[name] } = await openPublisher(at(prefix)));
    sockets.push(publishers[name]);
  }
  await Promise.all(
    Object.keys(PREFIX).map((name) => publish(publishers[name], snapshot(`epoch-${name}`, 0, { title: `Show ${name}`, bar: 0 }))),
  );
}, 90_000);

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await edge?.stop();
});

test('three shows publishing at once: each WebSocket viewer sees only its own show', async () => {
  const viewers = {};
  for (const [name, prefix] of Object.entries(PREFIX)) viewers[name] = await viewerOf(prefix);
  for (const name of Object.keys(PREFIX)) {
    const first = await viewers[name].next((f) => f.type === 'snapshot');
    expect([name, first.epoch, withoutVenue(first.data)]).toEqual([name, `epoch-${name}`, { title: `Show ${name}`, bar: 0 }]);
  }
  // Interleaved deltas: every show moves on its own.
  for (let seq = 1; seq <= 5; seq += 1) {
    await Promise.all(
      Object.keys(PREFIX).map((name) => publish(publishers[name], delta(`epoch-${name}`, seq, { bar: seq, [`only_${name}`]: seq }))),
    );
  }
  for (const name of Object.keys(PREFIX)) {
    await viewers[name].next((f) => f.type === 'delta' && f.seq === 5);
    const seen = viewers[name].frames.filter((f) => f.type === 'snapshot' || f.type === 'delta');
    expect(new Set(seen.map((f) => f.epoch))).toEqual(new Set([`epoch-${name}`]));
    expect(seen.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5]);
  }
  await Promise.all(Object.values(viewers).map((v) => v.close()));
});

test('SSE and polling under /s/<show>/ read that show only (per-show feed cache)', async () => {
  for (const [name, prefix] of Object.entries(PREFIX)) {
    await waitFor(async () => (await getJson(`${prefix}/poll`)).body[0]?.seq === 5, { what: `${name}'s poll to reach seq 5` });
    const poll = await getJson(`${prefix}/poll`);
    expect(poll.status).toBe(200);
    expect(poll.body).toMatchObject([{ type: 'snapshot', epoch: `epoch-${name}`, seq: 5 }]);
    expect(withoutVenue(poll.body[0].data)).toEqual({ title: `Show ${name}`, bar: 5, [`only_${name}`]: 5 });
    const since = await getJson(`${prefix}/poll?since=3&epoch=epoch-${name}`);
    expect(since.body.map((f) => [f.epoch, f.seq])).toEqual([
      [`epoch-${name}`, 4],
      [`epoch-${name}`, 5],
    ]);
    const { events } = await readSse(`${edge.url}${prefix}/sse`, { count: 1, timeoutMs: 5000 });
    expect(events[0]?.data).toMatchObject({ type: 'snapshot', epoch: `epoch-${name}`, seq: 5 });
  }
});

test("/healthz and /time exist per show; the deep view is the show's own root", async () => {
  const a = await getJson('/s/a/healthz?deep=1');
  const b = await getJson('/s/b/healthz?deep=1');
  const main = await getJson('/healthz?deep=1');
  expect([a.body.show.epoch, b.body.show.epoch, main.body.show.epoch]).toEqual(['epoch-a', 'epoch-b', 'epoch-main']);
  expect((await getJson('/s/a/healthz')).body).toMatchObject({ ok: true, service: 'tutti-edge', venue: 'live', show: 'a' });
  expect((await getJson('/healthz')).body).not.toHaveProperty('show');
  expect(typeof (await getJson('/s/b/time')).body.s).toBe('number');
});

test('a publisher of show a cannot change show b, not even with a forged x-tutti-show header', async () => {
  // The header the Worker uses to tell objects their show is replaced (named show) or removed
  // (default show): a client cannot pick another show's root or shards with it.
  const forged = openSocket(`${edge.wsUrl}/s/a/publish`, { headers: { authorization: `Bearer ${edge.token}`, 'x-tutti-show': 'b' } });
  sockets.push(forged);
  await forged.opened;
  const hello = await forged.next((f) => f.type === 'hello');
  expect(hello).toMatchObject({ epoch: 'epoch-a', seq: 5 });
  const ack = await publish(forged, snapshot('forged', 1, { title: 'forged' }));
  expect(ack).toMatchObject({ type: 'ack', epoch: 'forged', seq: 1 });
  const defaultForged = await fetch(`${edge.url}/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${edge.token}`, 'x-tutti-show': 'b', 'content-type': 'application/json' },
    body: JSON.stringify(snapshot('forged-main', 1, { title: 'forged main' })),
  });
  expect(defaultForged.status).toBe(200);
  await waitFor(async () => (await getJson('/s/a/poll')).body[0]?.epoch === 'forged', { what: 'show a to take the new snapshot' });
  await waitFor(async () => (await getJson('/poll')).body[0]?.epoch === 'forged-main', {
    what: 'the default show to take the new snapshot',
  });
  const b = await getJson('/s/b/poll');
  expect(b.body).toMatchObject([{ epoch: 'epoch-b', seq: 5 }]);
  expect((await getJson('/s/b/healthz?deep=1')).body.show.epoch).toBe('epoch-b');
  // The original publishers were replaced on a and main; b's is still the one publishing.
  expect(await publish(publishers.b, delta('epoch-b', 6, { bar: 6 }))).toMatchObject({ type: 'ack', seq: 6 });
  // An unauthenticated publisher under a show is refused like on /publish.
  const res = await fetch(`${edge.url}/s/b/publish`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ error: 'UNAUTHORIZED' });
});

test('media uploaded for show a is served under /s/a/media only', async () => {
  const bytes = Buffer.from('not really a png, but bytes of show a');
  const put = await fetch(`${edge.url}/s/a/publish/media/media/poster.png`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${edge.token}` },
    body: bytes,
  });
  expect(put.status).toBe(201);
  const mine = await fetch(`${edge.url}/s/a/media/media/poster.png`);
  expect(mine.status).toBe(200);
  expect(Buffer.from(await mine.arrayBuffer())).toEqual(bytes);
  for (const path of ['/s/b/media/media/poster.png', '/media/media/poster.png']) {
    const other = await fetch(`${edge.url}${path}`);
    expect([path, other.status]).toEqual([path, 404]);
    expect(await other.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  }
  const listed = await fetch(`${edge.url}/s/b/publish/media`, { headers: { authorization: `Bearer ${edge.token}` } });
  expect(JSON.stringify(await listed.json())).not.toContain('poster.png');
});

test('shard capacity is per show: a full show does not take room from another', async () => {
  const full = [];
  for (let i = 0; i < 3; i += 1) full.push(await viewerOf('/s/a'));
  const refused = openSocket(`${edge.wsUrl}/s/a/ws`);
  sockets.push(refused);
  await expect(refused.opened).rejects.toThrow(/HTTP 503/);
  await waitFor(() => refused.state.body.length > 0, { what: 'the refusal body' });
  expect(JSON.parse(refused.state.body)).toMatchObject({ error: 'EDGE_FULL' });
  // Show b (and the default show) still have their own shard's room.
  const other = await viewerOf('/s/b');
  expect(await other.next((f) => f.type === 'snapshot')).toMatchObject({ epoch: 'epoch-b' });
  const main = await viewerOf('');
  expect(await main.next((f) => f.type === 'snapshot')).toMatchObject({ epoch: 'forged-main' });
  await Promise.all([...full, other, main].map((v) => v.close()));
});

test('votes are counted by the show whose prompt is open, over POST /vote and the WebSocket', async () => {
  const prompt = {
    key: 'q1~a1',
    question: 'Which way?',
    options: [
      { id: 'left', label: 'Left' },
      { id: 'right', label: 'Right' },
    ],
    closes: Date.now() + 60_000,
  };
  const { publisher: va } = await openPublisher(at('/s/va'));
  const { publisher: vb } = await openPublisher(at('/s/vb'));
  sockets.push(va, vb);
  await publish(va, snapshot('votes-a', 0, { title: 'Votes A', vote: prompt }));
  await publish(vb, snapshot('votes-b', 0, { title: 'Votes B' }));
  const vote = (prefix, device) => postVote(edge, { key: 'q1~a1', option: 'left', device }, { base: prefix });
  const counted = await vote('/s/va', 'device-000000000001');
  expect([counted.status, await counted.json()]).toEqual([200, { type: 'voted', key: 'q1~a1', ok: true }]);
  // The same prompt key in another show (no prompt open there) or the default show: closed.
  for (const prefix of ['/s/vb', '']) {
    const refused = await vote(prefix, 'device-000000000002');
    expect([prefix, refused.status, (await refused.json()).reason]).toEqual([prefix, 409, 'closed']);
  }
  const viewer = await viewerOf('/s/va');
  await viewer.next((f) => f.type === 'snapshot');
  viewer.send({ type: 'vote', key: 'q1~a1', option: 'right', device: 'device-000000000003' });
  expect(await viewer.next((f) => f.type === 'voted')).toMatchObject({ key: 'q1~a1', ok: true });
  await viewer.close();
});

test('bad show names are refused with 400 BAD_SHOW and the error body; the default show is untouched', async () => {
  const bad = [
    '/s/',
    '/s',
    '/s//ws',
    '/s/Upper/ws',
    '/s/a_b/poll',
    '/s/-dash/poll',
    `/s/${'x'.repeat(41)}/poll`,
    '/s/a%2Fb/poll',
    '/s/..%2F/healthz',
    '/s/%C3%A9/',
  ];
  for (const path of bad) {
    const res = await fetch(`${edge.url}${path}`, { redirect: 'manual' });
    expect([path, res.status]).toEqual([path, 400]);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'BAD_SHOW', message: expect.stringMatching(/\/s\/<show>\//) });
  }
  expect((await getJson(`/s/${'x'.repeat(40)}/poll`)).status).toBe(200);
  // A show's folder without the slash is redirected into it (its page's relative URLs need it).
  const bare = await fetch(`${edge.url}/s/a?x=1`, { redirect: 'manual' });
  expect([bare.status, bare.headers.get('location')]).toEqual([308, '/s/a/?x=1']);
  expect((await getJson('/healthz?deep=1')).body.show.epoch).toBe('forged-main');
});

test('the audience page and its assets are served under /s/<show>/', async () => {
  const page = await fetch(`${edge.url}/s/b/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const html = await page.text();
  const root = await (await fetch(`${edge.url}/`)).text();
  expect(html).toBe(root);
  const script = html.match(/<script type="?module"? src="?([^" >]+)/)?.[1];
  expect(script).toBeTruthy();
  const asset = await fetch(new URL(script, `${edge.url}/s/b/`));
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
});
