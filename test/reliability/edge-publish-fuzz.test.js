// Thousands of hostile publisher frames at the edge root (real workerd): malformed JSON, wrong
// types, replayed / out-of-order seqs, foreign epochs, forged snapshots with a wrong token. Each
// is refused with a clear reply and none changes what viewers see.
import fc from 'fast-check';
import { delta, openPublisher, openViewer, publish, showStats, snapshot, startEdge } from '../edge/helpers.js';

let edge;
beforeAll(async () => {
  edge = await startEdge();
});
afterAll(async () => {
  await edge?.stop();
});

test('2,000 fuzzed publisher frames: every one answered, none applied, the viewer unaffected', async () => {
  const { publisher } = await openPublisher(edge);
  expect(await publish(publisher, snapshot('show', 10, { bar: 10 }))).toMatchObject({ type: 'ack', seq: 10 });
  const viewer = await openViewer(edge);
  await viewer.next((f) => f.type === 'snapshot' && f.seq === 10);

  const frames = fc.sample(
    fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      // Well-formed envelopes that must not chain: replays, gaps, the past, foreign epochs.
      fc
        .record({ seq: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 12, max: 1e6 })), bar: fc.integer() })
        .map(({ seq, bar }) => JSON.stringify(delta('show', seq, { bar }))),
      fc
        .record({ epoch: fc.string({ minLength: 1, maxLength: 10 }).filter((e) => e !== 'show'), seq: fc.nat(1e6) })
        .map(({ epoch, seq }) => JSON.stringify(delta(epoch, seq, { bar: -1 }))),
      fc.integer({ min: 0, max: 9 }).map((seq) => JSON.stringify(snapshot('show', seq, { bar: -2 }))),
      fc
        .record({
          v: fc.anything(),
          type: fc.constantFrom('snapshot', 'delta', 'ping', ''),
          epoch: fc.anything(),
          seq: fc.anything(),
          t: fc.anything(),
          data: fc.anything(),
        })
        .map((v) => JSON.stringify(v) ?? 'null'),
    ),
    { numRuns: 2000, seed: 21 },
  );

  const replies = new Map();
  for (const frame of frames) {
    const reply = await publish(publisher, frame);
    replies.set(reply.type, (replies.get(reply.type) ?? 0) + 1);
    expect(['error', 'resync']).toContain(reply.type);
    if (reply.type === 'error') expect(typeof reply.message).toBe('string');
  }
  expect(replies.get('error')).toBeGreaterThan(500);
  expect(replies.get('resync')).toBeGreaterThan(100);
  expect(await showStats(edge)).toMatchObject({ epoch: 'show', seq: 10 });

  // Forged publishers never get in, whatever token they try.
  const tokens = fc.sample(
    fc.string({ maxLength: 40 }).filter((t) => t !== edge.token && /^[\x21-\x7e]*$/.test(t)),
    { numRuns: 200, seed: 4 },
  );
  for (const token of tokens) {
    const res = await fetch(`${edge.url}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(snapshot('evil', 99, {})),
    });
    expect(res.status).toBe(401);
  }

  // The viewer saw nothing but the real show, and the next real delta still reaches it.
  expect(await publish(publisher, delta('show', 11, { bar: 11 }))).toMatchObject({ type: 'ack', seq: 11 });
  const next = await viewer.next((f) => f.type === 'delta');
  expect(next).toMatchObject({ epoch: 'show', seq: 11, data: { bar: 11 } });
  expect(viewer.frames.filter((f) => f.type === 'snapshot' || f.type === 'delta').every((f) => f.epoch === 'show' && f.seq >= 10)).toBe(
    true,
  );
  await viewer.close();
  await publisher.close();
}, 120_000);
