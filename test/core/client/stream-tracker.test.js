import fc from 'fast-check';
import { createStreamTracker } from '#core/client/stream-tracker.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { jsonEqual } from '#core/protocol/merge-patch.js';

const env = (type, epoch, seq, data) => ({ v: 1, type, epoch, seq, t: 1000 + seq, data });

describe('stream tracker', () => {
  test('applies a snapshot then chained deltas', () => {
    const tr = createStreamTracker();
    expect(tr.accept(env('snapshot', 'a', 5, { position: { bar: 1, beat: 1 } }))).toEqual({
      result: 'applied',
      reason: null,
      epochChanged: false,
    });
    expect(tr.accept(env('delta', 'a', 6, { position: { beat: 2 } })).result).toBe('applied');
    expect(tr.state()).toEqual({ position: { bar: 1, beat: 2 } });
    expect(tr.seq()).toBe(6);
    expect(tr.epoch()).toBe('a');
    expect(tr.needsResync()).toBe(false);
  });

  test('ignores duplicates and stale envelopes without changing the state', () => {
    const tr = createStreamTracker();
    tr.accept(env('snapshot', 'a', 1, { n: 1 }));
    tr.accept(env('delta', 'a', 2, { n: 2 }));
    expect(tr.accept(env('delta', 'a', 2, { n: 99 }))).toMatchObject({ result: 'ignored', reason: 'duplicate' });
    expect(tr.accept(env('delta', 'a', 1, { n: 98 }))).toMatchObject({ result: 'ignored', reason: 'stale' });
    expect(tr.accept(env('snapshot', 'a', 1, { n: 97 }))).toMatchObject({ result: 'ignored', reason: 'stale' });
    expect(tr.accept(env('snapshot', 'a', 2, { n: 2 }))).toMatchObject({ result: 'ignored', reason: 'duplicate' });
    expect(tr.state()).toEqual({ n: 2 });
    expect(tr.counts()).toMatchObject({ applied: 2, ignored: 4, resyncs: 0 });
  });

  test('a seq gap asks for a resync once, until a snapshot arrives', () => {
    const tr = createStreamTracker();
    tr.accept(env('snapshot', 'a', 1, { n: 1 }));
    expect(tr.accept(env('delta', 'a', 3, { n: 3 }))).toMatchObject({ result: 'resync', reason: 'gap' });
    expect(tr.accept(env('delta', 'a', 4, { n: 4 }))).toMatchObject({ result: 'resync', reason: 'gap' });
    expect(tr.needsResync()).toBe(true);
    expect(tr.state()).toEqual({ n: 1 }); // the gap delta was not applied
    expect(tr.counts().resyncs).toBe(1);
    // The snapshot at the same seq we hold is accepted while resyncing (it is the answer we asked for).
    expect(tr.accept(env('snapshot', 'a', 4, { n: 4 })).result).toBe('applied');
    expect(tr.needsResync()).toBe(false);
    expect(tr.accept(env('delta', 'a', 5, { n: 5 })).result).toBe('applied');
  });

  test('a delta from another epoch asks for a resync; a snapshot of the new epoch is applied and reported', () => {
    const tr = createStreamTracker();
    tr.accept(env('snapshot', 'a', 40, { n: 40 }));
    expect(tr.accept(env('delta', 'b', 1, { n: 1 }))).toMatchObject({ result: 'resync', reason: 'epoch' });
    // seq restarts low in the new epoch: must not be taken for a stale snapshot.
    expect(tr.accept(env('snapshot', 'b', 0, { n: 0 }))).toEqual({ result: 'applied', reason: null, epochChanged: true });
    expect(tr.epoch()).toBe('b');
    expect(tr.seq()).toBe(0);
  });

  test('a delta before any snapshot asks for one; malformed input is rejected', () => {
    const tr = createStreamTracker();
    expect(tr.accept(env('delta', 'a', 1, { n: 1 }))).toMatchObject({ result: 'resync', reason: 'no-state' });
    expect(tr.accept({ type: 'pong' })).toMatchObject({ result: 'invalid', reason: 'malformed' });
    expect(tr.accept(null).result).toBe('invalid');
    expect(tr.accept({ ...env('snapshot', 'a', 1, { n: 1 }), v: 2 }).result).toBe('invalid');
    expect(tr.state()).toBeNull();
    expect(tr.seq()).toBe(-1);
  });

  test('requestResync keeps applying chained deltas but waits for a snapshot to clear', () => {
    const tr = createStreamTracker();
    tr.accept(env('snapshot', 'a', 1, { n: 1 }));
    tr.requestResync();
    expect(tr.accept(env('delta', 'a', 2, { n: 2 })).result).toBe('applied');
    expect(tr.needsResync()).toBe(true);
    tr.accept(env('snapshot', 'a', 2, { n: 2 }));
    expect(tr.needsResync()).toBe(false);
  });

  test('property: whatever is lost, duplicated or reordered, the tracker never holds a wrong state, and a snapshot always repairs it', () => {
    const stateArb = fc.record({ a: fc.integer({ min: 0, max: 5 }), b: fc.option(fc.string({ maxLength: 2 }), { nil: undefined }) });
    fc.assert(
      fc.property(
        fc.array(stateArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 60 }),
        (states, noise) => {
          const stream = createStateStream({ epoch: 'e', state: {}, now: () => 0 });
          const first = JSON.parse(stream.snapshot().json);
          const frames = [];
          const truth = new Map([[0, {}]]);
          for (const s of states) {
            const u = stream.update(s);
            if (u) {
              frames.push(JSON.parse(u.json));
              truth.set(u.seq, stream.state());
            }
          }
          const tr = createStreamTracker();
          tr.accept(first);
          // Deliver frames with drops (0), duplicates (1) and swaps (2) driven by `noise`.
          const delivered = [];
          frames.forEach((f, i) => {
            const n = noise[i % Math.max(1, noise.length)] ?? 5;
            if (n === 0) return;
            delivered.push(f);
            if (n === 1) delivered.push(f);
            if (n === 2 && delivered.length > 1) delivered.splice(delivered.length - 2, 2, f, delivered[delivered.length - 2]);
          });
          for (const f of delivered) {
            tr.accept(f);
            // Invariant: the state we hold is exactly the server's state at the seq we claim.
            expect(jsonEqual(tr.state(), truth.get(tr.seq()))).toBe(true);
          }
          tr.accept(JSON.parse(stream.snapshot().json));
          expect(tr.needsResync()).toBe(false);
          expect(jsonEqual(tr.state(), stream.state())).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
