// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): one address holds the edge's capacity. It opened
// sockets until the show was full (every later viewer got 503 EDGE_FULL), and held 1,000 SSE
// streams or long polls (workerd at 93 %). Now one public address holds at most
// ADDRESS_MAX_SOCKETS per shard and never half a shard (the Worker then answers 429 rather than
// trying the next shard), and ADDRESS_MAX_STREAMS open SSE streams / long polls; the venue's
// address is not capped. Real local workerd, addresses played with CF-Connecting-IP.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { delta, fromAddress, openPublisher, openSocket, publish, showStats, snapshot, startEdge, waitFor } from './helpers.js';

const CAPACITY = 10;
const SHARDS = 2;
const VENUE = '203.0.113.9';

let edge;
let publisher;
let seq = 0;
const sockets = [];
const controllers = [];

beforeAll(async () => {
  edge = await startEdge({ direct: true, vars: { SHARD_CAPACITY: CAPACITY, SHARD_COUNT: SHARDS, ADDRESS_MAX_STREAMS: 8 } });
  ({ publisher } = await openPublisher(edge, edge.token, { address: VENUE }));
  sockets.push(publisher);
  await publish(publisher, snapshot('caps', 0, { bar: 1 }));
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.ws.terminate();
  for (const c of controllers) c.abort();
  await edge?.stop();
});

/** @returns {Promise<{ viewer: any, ok: boolean }>} */
async function join(address) {
  const viewer = openSocket(`${edge.wsUrl}/ws`, { headers: fromAddress(address) });
  sockets.push(viewer);
  const ok = await viewer.opened.then(
    () => true,
    () => false,
  );
  return { viewer, ok };
}

test('one address opens sockets until the show is full: it gets half a shard, everyone else gets in', async () => {
  let held = 0;
  const refusals = new Set();
  for (let i = 0; i < CAPACITY * SHARDS + 10; i += 1) {
    const { viewer, ok } = await join('198.51.100.30');
    if (ok) held += 1;
    else refusals.add(viewer.state.status);
  }
  const others = [];
  for (let i = 0; i < 15; i += 1) others.push((await join(`198.51.100.${100 + i}`)).ok);
  console.log(
    `socket hoarding: one address holds ${held} of ${CAPACITY * SHARDS} places (refused with ${[...refusals].join(',')}); ${others.filter(Boolean).length} of 15 other viewers got in`,
  );
  expect(held).toBeLessThanOrEqual(CAPACITY / 2);
  expect([...refusals]).toEqual([429]);
  expect(others).toEqual(Array(15).fill(true));
}, 60_000);

/** Open a stream and resolve with its status once the response headers are in. */
async function openStream(path, address) {
  const controller = new AbortController();
  controllers.push(controller);
  const res = await fetch(`${edge.url}${path}`, { headers: fromAddress(address), signal: controller.signal });
  return { status: res.status, controller, res };
}

test('one address holds 20 SSE streams: 8 are served, the rest 429; closing one makes room', async () => {
  const streams = await Promise.all(Array.from({ length: 20 }, () => openStream('/sse', '198.51.100.40')));
  const served = streams.filter((s) => s.status === 200);
  console.log(`SSE hoarding: ${served.length} of 20 streams served from one address`);
  expect(served).toHaveLength(8);
  expect(streams.filter((s) => s.status === 429)).toHaveLength(12);
  expect((await openStream('/sse', '198.51.100.41')).status).toBe(200);
  // A stream's place is freed when its next write finds the viewer gone (the next update).
  served[0].controller.abort();
  await waitFor(
    async () => {
      seq += 1;
      await publish(publisher, delta('caps', seq, { bar: seq }));
      const again = await openStream('/sse', '198.51.100.40');
      again.controller.abort();
      return again.status === 200;
    },
    { timeoutMs: 5000, intervalMs: 200, what: 'a place to free up' },
  );
  // The venue's address is not capped (overflow viewers from the hall share it).
  const venue = await Promise.all(Array.from({ length: 12 }, () => openStream('/sse', VENUE)));
  expect(venue.map((s) => s.status)).toEqual(Array(12).fill(200));
}, 60_000);

test('one address holds 20 long polls: 8 wait, the rest 429 at once', async () => {
  // The root's head: a poll since it waits. The isolate's feed cache may lag the root (one refresh
  // per FEED_TTL_MS), and a poll from ahead of it is answered at once with a snapshot: wait until
  // the cache has the head (asked from another address, which holds no stream afterwards).
  const since = (await showStats(edge)).seq;
  await waitFor(
    async () => {
      const items = await (await fetch(`${edge.url}/poll?since=${since - 1}`, { headers: fromAddress('198.51.100.51') })).json();
      return items.some((item) => item.seq === since);
    },
    { timeoutMs: 5000, intervalMs: 100, what: 'the feed cache to reach the head' },
  );
  const started = Date.now();
  const polls = await Promise.all(Array.from({ length: 20 }, () => openStream(`/poll?since=${since}&wait=3000`, '198.51.100.50')));
  const statuses = polls.map((p) => p.status);
  console.log(`long-poll hoarding: ${statuses.filter((s) => s === 200).length} of 20 polls held from one address`);
  expect(statuses.filter((s) => s === 200)).toHaveLength(8);
  expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2500); // the 8 did wait
}, 30_000);
