// Per-show publish tokens (docs/explanation/threat-model.md#several-shows-one-deployment; docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge)
// : a show with a secret of its own (`PUBLISH_TOKEN_<SHOW>`) is
// published to with that token only; a show without one and the default show keep PUBLISH_TOKEN.
// Every /publish… route follows the rule: the WebSocket, POST and the media uploads. On real
// workerd, with the secrets given as the worker's bindings.

import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { openSocket, publish, snapshot, startEdge, waitFor } from './helpers.js';

const DEMO = fileURLToPath(new URL('../../scores/demo.score.json', import.meta.url));

const GALA = randomBytes(16).toString('hex');
const LATE = randomBytes(16).toString('hex');

let edge;
const sockets = [];
const venues = [];

const bearer = (token) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  // `gala` and `late-night` have tokens of their own ("-" becomes "_"), `open` does not.
  edge = await startEdge({ vars: { SHOWS: '*', PUBLISH_TOKEN_GALA: GALA, PUBLISH_TOKEN_LATE_NIGHT: LATE, FEED_TTL_MS: 50 } });
}, 90_000);

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await Promise.all(venues.map((v) => v.close()));
  await edge?.stop();
});

/** Opens a publisher socket and publishes one snapshot: `{ status }` is the refusal's HTTP status or the reply's type ('ack'). */
async function tryWebSocket(prefix, token, epoch) {
  const socket = openSocket(`${edge.wsUrl}${prefix}/publish`, { headers: bearer(token) });
  sockets.push(socket);
  try {
    await socket.opened;
  } catch {
    return { status: socket.state.status, body: socket.state.body };
  }
  await socket.next((f) => f.type === 'hello');
  const reply = await publish(socket, snapshot(epoch, 0, { title: epoch }));
  return { status: reply.type };
}

async function epochAt(prefix) {
  const res = await fetch(`${edge.url}${prefix}/poll`);
  return (await res.json())[0]?.epoch;
}

test("WebSocket publish: a show's own token reaches that show only; PUBLISH_TOKEN only shows without one", async () => {
  const cases = [
    ['/s/gala', GALA, 'ack'],
    ['/s/gala', edge.token, 401], // the house token cannot take over a show with its own token
    ['/s/late-night', LATE, 'ack'],
    ['/s/late-night', GALA, 401], // another show's token
    ['/s/open', GALA, 401],
    ['', GALA, 401], // the default show
    ['/s/open', edge.token, 'ack'],
    ['', edge.token, 'ack'],
  ];
  const seen = [];
  for (const [prefix, token, expected] of cases) {
    const epoch = `ws-${prefix.replace(/\W/g, '') || 'main'}-${token.slice(0, 4)}`;
    const result = await tryWebSocket(prefix, token, epoch);
    seen.push([prefix, token === edge.token ? 'PUBLISH_TOKEN' : token === GALA ? 'GALA' : 'LATE', result.status]);
    if (expected === 'ack')
      await waitFor(async () => (await epochAt(prefix)) === epoch, { what: `${prefix || 'the default show'} to take ${epoch}` });
  }
  expect(seen).toEqual(
    cases.map(([prefix, token, expected]) => [prefix, token === edge.token ? 'PUBLISH_TOKEN' : token === GALA ? 'GALA' : 'LATE', expected]),
  );
  // None of the refused publishers changed a show: each still holds what its own publisher sent.
  expect(await epochAt('/s/gala')).toMatch(/^ws-sgala-/);
  expect(await epochAt('/s/open')).toBe(`ws-sopen-${edge.token.slice(0, 4)}`);
  expect(await epochAt('')).toBe(`ws-main-${edge.token.slice(0, 4)}`);
});

test('POST publish follows the same rule, and the 401 names the expected secret without any token', async () => {
  const post = (prefix, token, epoch) =>
    fetch(`${edge.url}${prefix}/publish`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(snapshot(epoch, 0, { title: epoch })),
    });
  expect((await post('/s/gala', GALA, 'post-gala')).status).toBe(200);
  expect((await post('/s/open', edge.token, 'post-open')).status).toBe(200);
  expect((await post('', edge.token, 'post-main')).status).toBe(200);

  const refusals = {
    houseAtGala: await post('/s/gala', edge.token, 'hijack-gala'),
    galaAtLate: await post('/s/late-night', GALA, 'hijack-late'),
    galaAtOpen: await post('/s/open', GALA, 'hijack-open'),
    galaAtMain: await post('', GALA, 'hijack-main'),
  };
  const bodies = {};
  for (const [name, res] of Object.entries(refusals)) {
    bodies[name] = { status: res.status, ...(await res.json()) };
    expect([name, bodies[name].status, bodies[name].error]).toEqual([name, 401, 'UNAUTHORIZED']);
    for (const secret of [GALA, LATE, edge.token]) expect(bodies[name].message).not.toContain(secret);
  }
  expect(bodies.houseAtGala.message).toContain('<PUBLISH_TOKEN_GALA>');
  expect(bodies.galaAtLate.message).toContain('<PUBLISH_TOKEN_LATE_NIGHT>');
  expect(bodies.galaAtOpen.message).toContain('<PUBLISH_TOKEN>');
  expect(bodies.galaAtOpen.message).toContain('no PUBLISH_TOKEN_OPEN is set');
  expect(bodies.galaAtMain.message).toBe('publishing needs Authorization: Bearer <PUBLISH_TOKEN>');

  await waitFor(async () => (await epochAt('/s/gala')) === 'post-gala', { what: 'gala to take its own POST' });
  expect([await epochAt('/s/gala'), await epochAt('/s/open'), await epochAt('')]).toEqual(['post-gala', 'post-open', 'post-main']);
  expect(await epochAt('/s/late-night')).not.toBe('hijack-late');
});

test('media publish follows the same rule (upload, list, delete)', async () => {
  const put = (prefix, token, body) =>
    fetch(`${edge.url}${prefix}/publish/media/media/poster.png`, { method: 'PUT', headers: bearer(token), body });
  expect((await put('/s/gala', GALA, 'gala poster')).status).toBe(201);
  expect((await put('/s/open', edge.token, 'open poster')).status).toBe(201);
  expect((await put('', edge.token, 'main poster')).status).toBe(201);

  const refused = [
    ['/s/gala', edge.token, await put('/s/gala', edge.token, 'hijacked')],
    ['/s/open', GALA, await put('/s/open', GALA, 'hijacked')],
    ['', GALA, await put('', GALA, 'hijacked')],
    ['/s/late-night', GALA, await put('/s/late-night', GALA, 'hijacked')],
  ];
  expect(refused.map(([prefix, , res]) => [prefix, res.status])).toEqual(refused.map(([prefix]) => [prefix, 401]));
  const list = await fetch(`${edge.url}/s/gala/publish/media`, { headers: bearer(edge.token) });
  expect(list.status).toBe(401);
  const del = await fetch(`${edge.url}/s/gala/publish/media/media/poster.png`, { method: 'DELETE', headers: bearer(edge.token) });
  expect(del.status).toBe(401);
  const ownList = await fetch(`${edge.url}/s/gala/publish/media`, { headers: bearer(GALA) });
  expect(ownList.status).toBe(200);
  expect(JSON.stringify(await ownList.json())).toContain('poster.png');

  // Nothing was overwritten: each show serves what its own publisher uploaded.
  for (const [prefix, text] of [
    ['/s/gala', 'gala poster'],
    ['/s/open', 'open poster'],
    ['', 'main poster'],
  ]) {
    const res = await fetch(`${edge.url}${prefix}/media/media/poster.png`);
    expect([prefix, res.status, await res.text()]).toEqual([prefix, 200, text]);
  }
  expect((await fetch(`${edge.url}/s/late-night/media/media/poster.png`)).status).toBe(404);
});

test('a venue server (`--edge <edge>/s/late-night --edge-token <its token>`) publishes; with PUBLISH_TOKEN it is refused and says so', async () => {
  const house = await startShow({ scorePath: DEMO, edgeUrl: `${edge.url}/s/late-night`, edgeToken: edge.token });
  venues.push(house);
  await waitFor(() => /UNAUTHORIZED/.test(house.status().edge.lastError ?? ''), {
    timeoutMs: 20_000,
    what: 'the house token to be refused at late-night',
  });
  expect(house.status().edge.connected).toBe(false);
  await house.close();

  const guest = await startShow({ scorePath: DEMO, edgeUrl: `${edge.url}/s/late-night`, edgeToken: LATE });
  venues.push(guest);
  await waitFor(() => guest.status().edge.connected === true, { timeoutMs: 20_000, what: 'the guest venue on late-night' });
  await waitFor(async () => (await epochAt('/s/late-night')) === guest.status().epoch, {
    timeoutMs: 20_000,
    what: "late-night to show the guest venue's state",
  });
  // Its media went up with the same token (the uploads are /publish/media… routes).
  await waitFor(
    async () => {
      const list = await fetch(`${edge.url}/s/late-night/publish/media`, { headers: bearer(LATE) });
      return list.status === 200 && (await list.json()).files?.length > 0;
    },
    { timeoutMs: 20_000, what: "the guest venue's media on late-night" },
  );
}, 60_000);
