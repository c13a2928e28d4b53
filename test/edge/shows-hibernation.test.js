// A named show's objects after a quiet spell (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge)
// : workerd evicts hibernatable objects from memory, so a fresh root or shard instance must
// still know its show — the root from storage, the shard from its sockets' tags — and never
// fall back to the default show's objects.

import { delta, openPublisher, openSocket, publish, snapshot, startEdge, showStats } from './helpers.js';

// workerd evicts a hibernatable object after about 10 s without events.
const QUIET_MS = 20_000;
let edge;

beforeAll(async () => {
  edge = await startEdge({ vars: { SHOWS: '*' } });
});

afterAll(async () => {
  await edge?.stop();
});

async function viewerOf(prefix) {
  const viewer = openSocket(`${edge.wsUrl}${prefix}/ws`);
  await viewer.opened;
  return viewer;
}

test("after hibernating, show a's objects still push a's updates and answer resync with a's snapshot", async () => {
  const { publisher: a } = await openPublisher({ wsUrl: `${edge.wsUrl}/s/a`, token: edge.token });
  const { publisher: main } = await openPublisher(edge);
  await publish(a, snapshot('sleepy-a', 1, { title: 'Show A', bar: 1 }));
  await publish(main, snapshot('sleepy-main', 1, { title: 'Default', bar: 1 }));
  const viewerA = await viewerOf('/s/a');
  const viewerMain = await viewerOf('');
  expect(await viewerA.next()).toMatchObject({ type: 'snapshot', epoch: 'sleepy-a' });
  expect(await viewerMain.next()).toMatchObject({ type: 'snapshot', epoch: 'sleepy-main' });
  // One push so the root knows its shard's instance (shardStartedAt).
  expect(await publish(a, delta('sleepy-a', 2, { bar: 2 }))).toMatchObject({ type: 'ack', seq: 2 });
  expect(await viewerA.next()).toMatchObject({ type: 'delta', seq: 2 });
  const before = (await showStats(edge, '/s/a')).shardStartedAt;

  await new Promise((r) => setTimeout(r, QUIET_MS));

  // Woken by the publisher: the root pushes to its own shards.
  expect(await publish(a, delta('sleepy-a', 3, { bar: 3 }))).toMatchObject({ type: 'ack', seq: 3 });
  expect(await viewerA.next()).toMatchObject({ type: 'delta', epoch: 'sleepy-a', seq: 3 });
  const after = (await showStats(edge, '/s/a')).shardStartedAt;
  expect(after['0']).toBeGreaterThan(before['0']); // a fresh shard instance got it

  await new Promise((r) => setTimeout(r, QUIET_MS));
  // Woken by a viewer: the fresh shard fetches the snapshot from show a's root, not the default's.
  viewerA.send({ type: 'resync' });
  expect(await viewerA.next()).toMatchObject({ type: 'snapshot', epoch: 'sleepy-a', seq: 3, data: { title: 'Show A', bar: 3 } });
  expect(viewerMain.frames.every((f) => f.epoch === 'sleepy-main')).toBe(true);
  await Promise.all([viewerA.close(), viewerMain.close(), a.close(), main.close()]);
}, 90_000);
