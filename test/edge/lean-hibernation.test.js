// The lean stream across a shard's hibernation (docs/explanation/lean-stream.md#how-it-works): a push
// carries the lean snapshot only when it changed, so a shard woken by a beat's push has the full
// snapshot but not the lean one. Its next lean joiner and a lean viewer's resync must still get
// the lean snapshot (fetched from the root), and lean viewers keep getting the lean deltas.

import { createStateStream } from '#core/stream/state-stream.js';
import { EDGE_LEAN_SUFFIX } from '../../edge-worker/src/show/lean-feed.js';
import { openPublisher, openSocket, openViewer, publish, showStats, startEdge } from './helpers.js';
import { WINDOW_BEATS, playingAt } from './lean-show.js';

// workerd evicts a hibernatable object after about 10 s without events.
const QUIET_MS = 20_000;
let edge;

beforeAll(async () => {
  edge = await startEdge();
});

afterAll(async () => {
  await edge?.stop();
});

test('a shard woken by a beat still gives lean joiners and lean resyncs the lean snapshot', async () => {
  const epoch = 'sleepy-lean';
  const leanEpoch = `${epoch}${EDGE_LEAN_SUFFIX}`;
  const venue = createStateStream({ epoch, state: playingAt(0), now: Date.now });
  const { publisher } = await openPublisher(edge);
  await publish(publisher, venue.snapshot().json);
  let beat = 0;
  const beats = async (n) => {
    for (let i = 0; i < n; i += 1) await publish(publisher, venue.update(playingAt(++beat)).json);
  };
  const full = await openViewer(edge);
  const lean = openSocket(`${edge.wsUrl}/ws?stream=lean`);
  await lean.opened;
  expect(await lean.next()).toMatchObject({ type: 'snapshot', epoch: leanEpoch, seq: 0 });
  await beats(1);
  await full.next((f) => f.seq === 1);
  const before = (await showStats(edge)).shardStartedAt['0'];

  // The root stays in memory (the same snapshot again is a no-op frame it answers, pushing
  // nothing), so the push below does not come from a fresh root that re-sends every snapshot.
  const quietUntil = Date.now() + QUIET_MS;
  while (Date.now() < quietUntil) {
    await new Promise((r) => setTimeout(r, 2000));
    expect(await publish(publisher, venue.snapshot().json)).toMatchObject({ type: 'ack', seq: beat });
  }

  // A beat wakes the shard: the full delta arrives, the lean state did not change.
  await beats(1);
  await full.next((f) => f.seq === 2);
  expect((await showStats(edge)).shardStartedAt['0']).toBeGreaterThan(before);

  const late = openSocket(`${edge.wsUrl}/ws?stream=lean`);
  await late.opened;
  const first = await late.next();
  expect(first).toMatchObject({ type: 'snapshot', epoch: leanEpoch, seq: 0 });
  expect(first.data.position).toBeUndefined();
  lean.send({ type: 'resync' });
  expect(await lean.next((f) => f.type === 'snapshot')).toMatchObject({ epoch: leanEpoch, seq: 0 });

  // The window moves: both lean viewers get the one lean delta.
  await beats(WINDOW_BEATS - beat);
  for (const v of [lean, late]) expect(await v.next((f) => f.type === 'delta')).toMatchObject({ epoch: leanEpoch, seq: 1 });
  expect(lean.frames.filter((f) => f.type === 'delta')).toHaveLength(1);
  await Promise.all([full, lean, late].map((v) => v.close()));
  await publisher.close();
}, 90_000);
