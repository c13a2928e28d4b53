import fc from 'fast-check';
import { createStateStream, applyEnvelope } from '#core/stream/state-stream.js';
import { envelopeProblem } from '#core/protocol/envelope.js';
import { jsonEqual } from '#core/protocol/merge-patch.js';

const stateArb = fc.record({
  transport: fc.constantFrom('stopped', 'playing', 'paused'),
  tempo: fc.integer({ min: 10, max: 400 }),
  position: fc.record({ bar: fc.integer({ min: 1, max: 200 }), beat: fc.integer({ min: 1, max: 7 }) }),
  view: fc.dictionary(
    fc.constantFrom('text', 'color', 'image', 'data'),
    fc.oneof(fc.string(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 5 })),
    { maxKeys: 4 },
  ),
});

describe('state stream', () => {
  test('applying every delta to the first snapshot always equals the latest snapshot', () => {
    fc.assert(
      fc.property(stateArb, fc.array(stateArb, { maxLength: 40 }), (first, changes) => {
        let t = 1000;
        const stream = createStateStream({ epoch: 'e1', state: first, now: () => t++ });
        let client = applyEnvelope(null, JSON.parse(stream.snapshot().json));
        let lastSeq = 0;
        for (const next of changes) {
          const update = stream.update(next);
          if (!update) continue;
          const envelope = JSON.parse(update.json);
          expect(envelopeProblem(envelope)).toBeNull();
          expect(envelope.seq).toBe(lastSeq + 1); // +1 per change
          lastSeq = envelope.seq;
          client = applyEnvelope(client, envelope);
        }
        const latest = JSON.parse(stream.snapshot().json);
        expect(latest.seq).toBe(lastSeq);
        expect(jsonEqual(client, latest.data)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('an unchanged state publishes nothing', () => {
    const stream = createStateStream({ epoch: 'e', state: { a: 1 }, now: () => 0 });
    expect(stream.update({ a: 1 })).toBeNull();
    expect(stream.seq()).toBe(0);
  });

  test('deltasSince gives exactly the missed deltas inside the window, null outside', () => {
    const stream = createStateStream({ epoch: 'e', state: { n: 0 }, now: () => 0, replayLimit: 5 });
    for (let n = 1; n <= 12; n += 1) stream.update({ n });
    expect(stream.deltasSince(12)).toEqual([]);
    expect(stream.deltasSince(9).map((j) => JSON.parse(j).seq)).toEqual([10, 11, 12]);
    expect(stream.deltasSince(7).map((j) => JSON.parse(j).seq)).toEqual([8, 9, 10, 11, 12]);
    expect(stream.deltasSince(6)).toBeNull();
    expect(stream.deltasSince(13)).toBeNull();
  });

  test('reset starts a new epoch at seq 0 and forgets the replay window', () => {
    const stream = createStateStream({ epoch: 'e1', state: { n: 0 }, now: () => 0 });
    stream.update({ n: 1 });
    stream.reset('e2', { m: 1 });
    const snap = JSON.parse(stream.snapshot().json);
    expect(snap).toMatchObject({ v: 1, type: 'snapshot', epoch: 'e2', seq: 0, data: { m: 1 } });
    expect(stream.deltasSince(0)).toEqual([]);
    expect(stream.deltasSince(1)).toBeNull();
  });

  test('the same delta bytes are returned to every caller (serialize once)', () => {
    const stream = createStateStream({ epoch: 'e', state: { n: 0 }, now: () => 0 });
    const update = stream.update({ n: 1 });
    expect(stream.deltasSince(0)[0]).toBe(update.json);
  });
});
