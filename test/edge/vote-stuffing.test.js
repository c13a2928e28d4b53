// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): one script decides the piece by inventing device ids
// from one internet address, over POST /vote or one WebSocket per id. Each voice now costs a join
// (a signed session or a socket), and joins are limited per address (JOIN_LIMITER, 30 a minute)
// and sockets capped per address; the venue's own address, which every overflow viewer sent from
// the hall shares, is not starved. Real local workerd, addresses played with CF-Connecting-IP.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { deviceId } from '../support/vote-score.js';
import {
  edgeVote,
  fromAddress,
  joinSession,
  openPublisher,
  openSocket,
  postVote,
  publish,
  showStats,
  snapshot,
  startEdge,
  waitFor,
} from './helpers.js';

const ATTACKER = '198.51.100.7';
const VENUE = '203.0.113.9';
/** JOIN_LIMITER in wrangler.jsonc: 30 a minute; a run may straddle two windows. */
const JOINS_AT_MOST = 60;
const prompt = {
  key: 'q1~a1',
  question: 'Which way?',
  options: [
    { id: 'left', label: 'Left' },
    { id: 'right', label: 'Right' },
  ],
  closes: Date.now() + 10 * 60_000,
};

let edge;
const sockets = [];

beforeAll(async () => {
  edge = await startEdge({ direct: true, vars: { SHARD_CAPACITY: 50, SHARD_COUNT: 2 } });
  const { publisher } = await openPublisher(edge, edge.token, { address: VENUE });
  sockets.push(publisher);
  await publish(publisher, snapshot('stuffing', 0, { title: 'Votes', vote: prompt }));
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.ws.terminate();
  await edge?.stop();
});

const counted = async () => (await showStats(edge)).votes.total ?? 0;

test('POST /vote with 300 invented device ids from one address: at most one join-limit of them count', async () => {
  const ATTEMPTS = 300;
  const before = await counted();
  const deadline = Date.now() + 60_000;
  let accepted = 0;
  for (let i = 0; i < ATTEMPTS && Date.now() < deadline; i += 1) {
    const res = await postVote(edge, { key: prompt.key, option: 'left', device: deviceId(1000 + i) }, { address: ATTACKER });
    if (res.status === 200) accepted += 1;
  }
  await new Promise((r) => setTimeout(r, 1000)); // the owners' reports reach the root
  const total = (await counted()) - before;
  console.log(`vote stuffing over POST /vote: ${accepted} of ${ATTEMPTS} accepted, ${total} counted`);
  expect(accepted).toBeLessThanOrEqual(JOINS_AT_MOST);
  expect(total).toBeLessThanOrEqual(JOINS_AT_MOST);
  // No session, or another device's session: refused before anything is counted.
  const bare = await postVote(
    edge,
    { key: prompt.key, option: 'left', device: deviceId(5000) },
    { address: '198.51.100.8', session: null },
  );
  expect([bare.status, (await bare.json()).error]).toEqual([403, 'SESSION']);
  const other = await joinSession(edge, deviceId(5001), { address: '198.51.100.8' });
  const borrowed = await postVote(
    edge,
    { key: prompt.key, option: 'left', device: deviceId(5002) },
    { address: '198.51.100.8', session: other.session },
  );
  expect(borrowed.status).toBe(403);
}, 90_000);

test('100 WebSockets from one address, one invented device each: at most a socket cap of them count', async () => {
  const ATTEMPTS = 100;
  const before = await counted();
  let opened = 0;
  let voted = 0;
  for (let i = 0; i < ATTEMPTS; i += 1) {
    const viewer = openSocket(`${edge.wsUrl}/ws`, { headers: fromAddress('198.51.100.20') });
    sockets.push(viewer);
    try {
      await viewer.opened;
    } catch {
      continue;
    }
    opened += 1;
    if ((await edgeVote(viewer, prompt.key, 'right', deviceId(2000 + i))).ok) voted += 1;
  }
  await new Promise((r) => setTimeout(r, 1000));
  const total = (await counted()) - before;
  console.log(`vote stuffing over WebSockets: ${opened} of ${ATTEMPTS} sockets opened, ${voted} votes accepted, ${total} counted`);
  // ADDRESS_MAX_SOCKETS (16) per shard, and no more joins than JOIN_LIMITER allows
  expect(opened).toBeLessThanOrEqual(16);
  expect(total).toBeLessThanOrEqual(16);
}, 90_000);

test("the venue's address is not starved: 40 overflow sockets and 40 POST voters from it all count", async () => {
  const before = await counted();
  const viewers = [];
  for (let i = 0; i < 40; i += 1) {
    const viewer = openSocket(`${edge.wsUrl}/ws`, { headers: fromAddress(VENUE) });
    sockets.push(viewer);
    await viewer.opened;
    viewers.push(viewer);
  }
  const onSockets = await Promise.all(viewers.map((v, i) => edgeVote(v, prompt.key, 'left', deviceId(3000 + i))));
  expect(onSockets.filter((a) => a.ok)).toHaveLength(40);
  const statuses = [];
  for (let i = 0; i < 40; i += 1)
    statuses.push((await postVote(edge, { key: prompt.key, option: 'right', device: deviceId(4000 + i) }, { address: VENUE })).status);
  expect(statuses).toEqual(Array(40).fill(200));
  await waitFor(async () => (await counted()) - before === 80, { timeoutMs: 10_000, what: 'all 80 venue votes counted' });
}, 90_000);
