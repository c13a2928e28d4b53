// Two venue servers publish two shows to one edge at the same time (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge)
// : `--edge <edge>/s/a` and `--edge <edge>/s/b`. Each show's remote viewers (WS,
// SSE, poll) get only their venue's states, each venue's media is served under its own show
// only, each venue's /healthz probe reads its own show, and the default show stays untouched.

import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { openSocket, readSse, startEdge, waitFor, showStats } from './helpers.js';

const TIDAL = fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url));
const DEMO = fileURLToPath(new URL('../../scores/demo.score.json', import.meta.url));

let edge;
const venues = {};
const sockets = [];

beforeAll(async () => {
  edge = await startEdge({ vars: { SHOWS: '*' } });
  venues.a = await startShow({ scorePath: TIDAL, edgeUrl: `${edge.url}/s/a`, edgeToken: edge.token });
  venues.b = await startShow({ scorePath: DEMO, edgeUrl: `${edge.url}/s/b/`, edgeToken: edge.token });
  for (const name of ['a', 'b']) {
    await waitFor(() => venues[name].status().edge.connected === true, { timeoutMs: 20_000, what: `venue ${name} on the edge` });
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await Promise.all(Object.values(venues).map((v) => v.close()));
  await edge?.stop();
});

const epochOf = (name) => venues[name].status().epoch;

test("each show's WebSocket viewers get only their own venue's stream, while both play", async () => {
  expect(epochOf('a')).not.toBe(epochOf('b'));
  const viewers = {};
  for (const name of ['a', 'b']) {
    viewers[name] = openSocket(`${edge.wsUrl}/s/${name}/ws`);
    sockets.push(viewers[name]);
    await viewers[name].opened;
  }
  const titles = { a: 'Tidal Lines', b: 'Tutti — a short demo' };
  for (const name of ['a', 'b']) {
    const first = await viewers[name].next((f) => f.type === 'snapshot', 15_000);
    expect([name, first.epoch]).toEqual([name, epochOf(name)]);
    expect(JSON.stringify(first.data)).toContain(titles[name]);
    // Both venues autoplay: a few live deltas arrive, all from this show's venue.
    await viewers[name].next((f) => f.type === 'delta', 15_000);
    await viewers[name].next((f) => f.type === 'delta', 15_000);
  }
  for (const name of ['a', 'b']) {
    const epochs = new Set(viewers[name].frames.filter((f) => typeof f.epoch === 'string').map((f) => f.epoch));
    expect([name, [...epochs]]).toEqual([name, [epochOf(name)]]);
  }
});

test("SSE and polling under each show read that show's venue", async () => {
  for (const name of ['a', 'b']) {
    const poll = await fetch(`${edge.url}/s/${name}/poll`);
    expect(poll.status).toBe(200);
    const [snap] = await poll.json();
    expect([name, snap.type, snap.epoch]).toEqual([name, 'snapshot', epochOf(name)]);
    const { events } = await readSse(`${edge.url}/s/${name}/sse`, { count: 1, timeoutMs: 5000 });
    expect([name, events[0]?.data.epoch]).toEqual([name, epochOf(name)]);
  }
});

test("each venue's media is uploaded to its own show and served only there", async () => {
  for (const name of ['a', 'b']) {
    const assets = venues[name].show.engine.score().assets;
    await waitFor(() => venues[name].status().edge.media?.uploaded === assets.length, {
      timeoutMs: 20_000,
      what: `venue ${name}'s media on the edge`,
    });
  }
  const onlyA = venues.a.show.engine.score().assets.map((a) => a.src);
  const onlyB = new Set(venues.b.show.engine.score().assets.map((a) => a.src));
  for (const src of onlyA.filter((s) => !onlyB.has(s))) {
    const path = src.split('/').map(encodeURIComponent).join('/');
    const [mine, other, fallback] = await Promise.all(
      [`/s/a/media/${path}`, `/s/b/media/${path}`, `/media/${path}`].map((p) => fetch(`${edge.url}${p}`)),
    );
    expect([src, mine.status, other.status, fallback.status]).toEqual([src, 200, 404, 404]);
    await Promise.all([mine, other, fallback].map((r) => r.arrayBuffer()));
  }
});

test("each venue's probe reads its own show's /healthz; the default show was never published", async () => {
  for (const name of ['a', 'b']) {
    await waitFor(() => venues[name].status().edge.venue?.status === 'live', {
      timeoutMs: 15_000,
      what: `venue ${name}'s probe to see its show live`,
    });
  }
  // Had a probe read the default show's /healthz it would have seen "none": nobody published there.
  const main = { show: await showStats(edge) };
  expect(main.show).toMatchObject({ publishers: 0, viewers: 0, frames: { accepted: 0 } });
  expect(main.show.venue.status).toBe('none');
  const a = { show: await showStats(edge, '/s/a') };
  expect(a.show).toMatchObject({ epoch: epochOf('a'), publishers: 1 });
});

test("the console's edge URL field names the show too, and refuses a bad show name", async () => {
  const setEdge = (url) =>
    fetch(`${venues.b.controlUrl}/api/edge`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      body: JSON.stringify({ url, token: edge.token }),
    });
  const bad = await setEdge(`${edge.url}/s/Not_A_Show`);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({
    error: 'BAD_EDGE_URL',
    message: expect.stringMatching(/the edge URL names the show "Not_A_Show"/),
  });
  expect(venues.b.status().edge).toMatchObject({ connected: true }); // the refused URL changed nothing

  const moved = await setEdge(`${edge.url}/s/c`);
  expect(moved.status).toBe(200);
  await waitFor(() => venues.b.status().edge.connected === true, { timeoutMs: 20_000, what: 'venue b on show c' });
  const viewer = openSocket(`${edge.wsUrl}/s/c/ws`);
  sockets.push(viewer);
  await viewer.opened;
  expect((await viewer.next((f) => f.type === 'snapshot', 15_000)).epoch).toBe(epochOf('b'));
  // Show a's viewers never saw venue b.
  const a = await (await fetch(`${edge.url}/s/a/poll`)).json();
  expect(a[0].epoch).toBe(epochOf('a'));
});
