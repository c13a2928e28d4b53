// Shards hibernate between updates: after a quiet spell the object is evicted from memory while
// its viewers stay connected. The next update must still reach them, and a resync must still get
// the snapshot, from an instance that remembers nothing.

import { delta, openPublisher, openViewer, publish, showStats, snapshot, startEdge } from './helpers.js';

// workerd evicts a hibernatable object after about 10 s without events.
const QUIET_MS = 20_000;
let edge;

beforeAll(async () => {
  edge = await startEdge({ vars: { SHARD_CAPACITY: 2 } });
});

afterAll(async () => {
  await edge?.stop();
});

test('after hibernating, shards still deliver updates and answer resync and ping', async () => {
  const { publisher } = await openPublisher(edge);
  await publish(publisher, snapshot('sleepy', 1, { title: 'Quiet piece', bar: 1 }));
  const viewers = [await openViewer(edge), await openViewer(edge), await openViewer(edge)];
  expect(viewers.map((v) => v.state.shard)).toEqual(['0', '0', '1']);
  for (const v of viewers) await v.next();
  expect(await publish(publisher, delta('sleepy', 2, { bar: 2 }))).toMatchObject({ type: 'ack', seq: 2 });
  for (const v of viewers) expect(await v.next()).toMatchObject({ seq: 2 });
  const before = (await showStats(edge)).shardStartedAt;
  expect(Object.keys(before).sort()).toEqual(['0', '1']);

  await new Promise((r) => setTimeout(r, QUIET_MS));

  expect(await publish(publisher, delta('sleepy', 3, { bar: 3 }))).toMatchObject({ type: 'ack', seq: 3 });
  for (const v of viewers) expect(await v.next()).toMatchObject({ type: 'delta', seq: 3, data: { bar: 3 } });
  const after = await showStats(edge);
  // New instances: the old ones were evicted while their sockets stayed open.
  expect(after.shardStartedAt['0']).toBeGreaterThan(before['0']);
  expect(after.shardStartedAt['1']).toBeGreaterThan(before['1']);
  expect(after.shards).toEqual({ 0: 2, 1: 1 });

  await new Promise((r) => setTimeout(r, QUIET_MS));
  // Woken by a viewer this time: the resync needs the snapshot, which the fresh instance fetches.
  viewers[2].send({ type: 'resync' });
  expect(await viewers[2].next()).toMatchObject({ type: 'snapshot', epoch: 'sleepy', seq: 3, data: { title: 'Quiet piece', bar: 3 } });
  viewers[0].send({ type: 'ping', id: 1, c: 5 });
  expect(await viewers[0].next()).toMatchObject({ type: 'pong', id: 1, c: 5 });

  // And a new joiner on the fresh shard 1 gets the snapshot first.
  const late = await openViewer(edge);
  expect(late.state.shard).toBe('1');
  expect(await late.next()).toMatchObject({ type: 'snapshot', seq: 3 });
  await Promise.all([...viewers, late].map((v) => v.close()));
  await publisher.close();
}, 90_000);
