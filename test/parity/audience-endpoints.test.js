// Venue and edge are one protocol (docs/reference/audience-protocol.md#endpoints and "Errors"): the same request,
// good or bad, gets the same status and the same error body from a venue server and from the edge
// worker on local workerd mirroring it. Every case runs against both; all differences are listed at
// once. Documented differences (the edge's CORS headers, its /healthz fields, the lean stream's
// seq numbers and epoch suffix: each server numbers its own) are not compared here.

import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { waitFor } from '../edge/helpers.js';
import { startVenueAndEdge } from './venue-and-edge.js';

const TIDAL = fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url));

let edge;
let server;

beforeAll(async () => {
  // The edge has the venue's stream (not its own "not started" snapshot) and the media.
  ({ edge, server } = await startVenueAndEdge({ scorePath: TIDAL }));
  const assets = server.show.engine.score().assets.length;
  await waitFor(() => server.status().edge.media?.uploaded === assets, { timeoutMs: 20_000, what: 'the media upload' });
}, 90_000);

afterAll(async () => {
  await server?.close();
  await edge?.stop();
});

/**
 * What a client sees of one HTTP answer: status, and for JSON the parsed body.
 * An event stream is not read (it never ends): its status and content type are enough.
 */
async function httpAnswer(base, { path, method = 'GET', headers = {} }) {
  const controller = new AbortController();
  const res = await fetch(`${base}${path}`, { method, headers, signal: controller.signal, redirect: 'manual' });
  const type = res.headers.get('content-type') ?? '';
  let body = null;
  if (type.startsWith('text/event-stream')) controller.abort();
  else if (type.startsWith('application/json')) body = await res.json();
  else await res.arrayBuffer();
  return { status: res.status, type: type.split(';')[0], body, allow: res.headers.get('allow') };
}

/** A WebSocket handshake: 101, or the status and JSON body it was refused with. */
function wsAnswer(base, { path, headers = {} }) {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers, perMessageDeflate: false });
    ws.on('open', () => {
      ws.terminate();
      resolve({ status: 101, type: null, body: null, allow: null });
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        ws.terminate();
        const type = String(res.headers['content-type'] ?? '').split(';')[0];
        resolve({ status: res.statusCode, type, body: type === 'application/json' ? JSON.parse(text) : null, allow: null });
      });
    });
    ws.on('error', () => {});
  });
}

/** The part of an answer both servers must agree on. */
function comparable(answer, { shape }) {
  const out = { status: answer.status, type: answer.type };
  if (answer.status >= 400) {
    out.body = answer.body;
    if (answer.status === 405) out.allow = answer.allow;
  } else if (shape) {
    out.shape = shape(answer.body);
  }
  return out;
}

const firstType = (body) => (Array.isArray(body) ? (body[0]?.type ?? 'empty') : typeof body);
/** A lean answer: its first envelope's type, that it is of a lean epoch, and the state's keys (the edge adds `venue`). */
const leanShape = (body) => [
  firstType(body),
  /~lean/.test(body?.[0]?.epoch ?? ''),
  Object.keys(body?.[0]?.data ?? {})
    .filter((k) => k !== 'venue')
    .sort(),
];

/**
 * Where a server's lean stream stands (each numbers its own: docs/reference/audience-protocol.md#endpoints).
 * @param {string} base
 */
async function leanHead(base) {
  const [snapshot] = await (await fetch(`${base}/poll?stream=lean`)).json();
  return `since=${snapshot.seq}&epoch=${encodeURIComponent(snapshot.epoch)}`;
}

/** Every audience endpoint, with good and bad input. `shape` reduces a 200 body to what must agree. */
const CASES = [
  { name: 'poll, joining', path: '/poll', shape: firstType },
  {
    name: 'poll, resuming at the head',
    path: () => `/poll?since=${server.show.stream.seq()}&epoch=${server.show.stream.epoch()}&wait=0`,
    shape: (b) => Array.isArray(b),
  },
  { name: 'poll, a foreign epoch gets the snapshot', path: '/poll?since=3&epoch=not-this-one', shape: firstType },
  // (A since behind the window depends on how much each one holds, so it is not compared.)
  {
    name: 'poll, since ahead of the head',
    path: () => `/poll?since=${server.show.stream.seq() + 1000}&epoch=${server.show.stream.epoch()}`,
    shape: firstType,
  },
  { name: 'poll, since not a number', path: '/poll?since=abc' },
  { name: 'poll, negative since', path: '/poll?since=-1' },
  { name: 'poll, since with a fraction', path: '/poll?since=1.5' },
  { name: 'poll, wait not a number', path: '/poll?since=1&wait=soon' },
  { name: 'poll, unknown stream', path: '/poll?stream=fast' },
  { name: 'poll lean, joining', path: '/poll?stream=lean', shape: leanShape },
  {
    name: 'poll lean, resuming at its own head',
    path: async (base) => `/poll?stream=lean&${await leanHead(base)}&wait=0`,
    shape: (b) => Array.isArray(b),
  },
  {
    name: "poll lean, the full stream's epoch is foreign",
    path: () => `/poll?stream=lean&since=1&epoch=${server.show.stream.epoch()}`,
    shape: leanShape,
  },
  { name: 'poll lean, since not a number', path: '/poll?stream=lean&since=x' },
  { name: 'sse lean, joining', path: '/sse?stream=lean' },
  { name: 'ws lean, upgrade', path: '/ws?stream=lean', ws: true },
  { name: 'poll, POST', path: '/poll', method: 'POST' },
  { name: 'sse, joining', path: '/sse' },
  { name: 'sse, since not a number', path: '/sse?since=x' },
  { name: 'sse, Last-Event-ID not a number', path: '/sse', headers: { 'last-event-id': 'yesterday' } },
  { name: 'sse, unknown stream', path: '/sse?stream=fast' },
  { name: 'sse, DELETE', path: '/sse', method: 'DELETE' },
  { name: 'time', path: '/time', shape: (b) => typeof b?.s },
  { name: 'time, POST', path: '/time', method: 'POST' },
  { name: 'healthz', path: '/healthz', shape: (b) => b?.ok },
  { name: 'ws without an upgrade', path: '/ws' },
  { name: 'ws, upgrade', path: '/ws', ws: true },
  { name: 'ws, upgrade with an unknown stream', path: '/ws?stream=fast', ws: true },
  {
    name: 'media, a listed file',
    path: () => `/media/${server.show.engine.score().assets[0].src.split('/').map(encodeURIComponent).join('/')}`,
  },
  { name: 'media, not in the score', path: '/media/nothing-here.wav' },
  { name: 'media, climbing out', path: '/media/..%2F..%2Fpackage.json' },
  { name: 'media, a backslash', path: '/media/a%5Cb.wav' },
  { name: 'media, PUT', path: '/media/nothing-here.wav', method: 'PUT' },
];

test('every audience endpoint answers the same at the venue and at the edge, good input and bad', async () => {
  const differences = [];
  for (const c of CASES) {
    // A path may depend on the server asked (its own lean head).
    const requestFor = async (base) => ({ ...c, path: typeof c.path === 'function' ? await c.path(base) : c.path });
    const ask = c.ws ? wsAnswer : httpAnswer;
    const [venue, remote] = await Promise.all([server.audienceUrl, edge.url].map(async (base) => ask(base, await requestFor(base))));
    const a = comparable(venue, c);
    const b = comparable(remote, c);
    if (JSON.stringify(a) !== JSON.stringify(b)) differences.push({ case: c.name, venue: a, edge: b });
  }
  expect(differences).toEqual([]);
}, 60_000);
