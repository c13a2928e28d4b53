import fc from 'fast-check';
import { createClockSync } from '#core/client/clock-sync.js';
import { createSeededRandom } from '#core/util/seeded-random.js';

/**
 * Simulate exchanges: viewer clock = true time; server clock = true time + offset (+ drift),
 * stamped as integer ms like Date.now(). Delays per leg from `delay()`.
 */
function simulate(sync, { offset, n, delay, spacing = 100, start = 1_000_000, driftPpm = 0 }) {
  let t = start;
  for (let i = 0; i < n; i += 1) {
    const { id, c } = sync.ping(t);
    const atServer = t + delay();
    const s = Math.floor(atServer + offset + (atServer - start) * driftPpm * 1e-6);
    const r = atServer + delay();
    expect(sync.pong({ type: 'pong', id, c, s }, r)).toBe(true);
    t += spacing;
  }
  return t;
}

describe('clock sync', () => {
  test('no estimate before the first sample; toServer/toLocal are identity', () => {
    const sync = createClockSync();
    expect(sync.estimate()).toBeNull();
    expect(sync.toServer(5)).toBe(5);
    expect(sync.toLocal(5)).toBe(5);
  });

  test('one symmetric exchange gives the classic NTP offset and its bound', () => {
    const sync = createClockSync({ serverResolutionMs: 0, driftPpm: 0 });
    const { id } = sync.ping(1000);
    sync.pong({ type: 'pong', id, c: 1000, s: 5050 }, 1100); // 50 ms each way, server 4000 ahead
    const e = sync.estimate();
    expect(e.offset).toBe(4000);
    expect(e.ntpOffset).toBe(4000);
    expect(e.uncertainty).toBe(50);
    expect(e.quality).toBe('poor');
    expect(e.rtt).toBe(100);
    expect(sync.toLocal(sync.toServer(1234))).toBe(1234);
  });

  test('rejects unknown ids, replays, forged echoes and answers from before the ping', () => {
    const sync = createClockSync();
    const { id, c } = sync.ping(1000);
    expect(sync.pong({ type: 'pong', id: id + 1, c, s: 1 }, 1010)).toBe(false);
    expect(sync.pong({ type: 'pong', id, c: c + 1, s: 1 }, 1010)).toBe(false); // consumed: wrong echo
    expect(sync.pong({ type: 'pong', id, c, s: 1 }, 1010)).toBe(false); // already consumed
    expect(sync.pong(null, 1)).toBe(false);
    expect(sync.addSample({ c: 10, s: 1, r: 5 })).toBe(false);
    expect(sync.addSample({ c: 10, s: NaN, r: 15 })).toBe(false);
    expect(sync.estimate()).toBeNull();
  });

  test('on a 0–150 ms jittery network it converges to a few ms, better than the best round trip alone', () => {
    const rand = createSeededRandom(42);
    const sync = createClockSync();
    simulate(sync, { offset: -123_456.25, n: 64, delay: () => rand() * 150 });
    const e = sync.estimate();
    expect(Math.abs(e.offset - -123_456.25)).toBeLessThan(5);
    expect(e.uncertainty).toBeLessThan(8);
    // The true offset is always inside the reported bound.
    expect(Math.abs(e.offset - -123_456.25)).toBeLessThanOrEqual(e.uncertainty + 1e-9);
    expect(e.minRtt).toBeGreaterThan(0);
  });

  test('property: the true offset always lies within offset ± uncertainty (no drift, any delays)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.double({ min: -1e7, max: 1e7, noNaN: true }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 400 }),
        (seed, offset, n, maxDelay) => {
          const rand = createSeededRandom(seed);
          const sync = createClockSync();
          simulate(sync, { offset, n, delay: () => rand() * maxDelay });
          const e = sync.estimate();
          expect(Math.abs(e.offset - offset)).toBeLessThanOrEqual(e.uncertainty + 1e-6);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('follows a drifting clock: the widened window stays consistent and close', () => {
    const rand = createSeededRandom(7);
    const sync = createClockSync({ steadyEvery: 3000 });
    // 50 ppm drift over 400 exchanges 3 s apart (20 minutes): 60 ms total.
    const end = simulate(sync, { offset: 500, n: 400, delay: () => 2 + rand() * 20, spacing: 3000, driftPpm: 50 });
    const trueNow = 500 + (end - 1_000_000) * 50e-6;
    expect(Math.abs(sync.estimate().offset - trueNow)).toBeLessThan(6);
  });

  test('a clock step drops contradicting samples and recovers from the new ones', () => {
    const rand = createSeededRandom(3);
    const sync = createClockSync();
    const t = simulate(sync, { offset: 0, n: 40, delay: () => rand() * 20 });
    simulate(sync, { offset: 10_000, n: 5, delay: () => rand() * 20, start: t });
    const e = sync.estimate();
    expect(Math.abs(e.offset - 10_000)).toBeLessThanOrEqual(e.uncertainty + 1);
    expect(e.samples).toBeLessThanOrEqual(5);
  });

  test('invalidate starts a fresh window with the next sample and pings fast again', () => {
    const sync = createClockSync({ schedule: [{ until: 4, every: 50 }], steadyEvery: 3000 });
    simulate(sync, { offset: 0, n: 6, delay: () => 1 });
    expect(sync.nextDelay()).toBe(3000);
    sync.invalidate();
    expect(sync.nextDelay()).toBe(50);
    sync.addSample({ c: 0, s: 777, r: 10 });
    expect(sync.estimate().samples).toBe(1);
    expect(sync.count()).toBe(7);
  });

  test('keeps refining: pings faster while the bound is wider than the target, slowly once tight', () => {
    const sync = createClockSync({ schedule: [{ until: 2, every: 50 }], steadyEvery: 3000, targetUncertainty: 3, refineEvery: 500 });
    simulate(sync, { offset: 0, n: 2, delay: () => 40 });
    expect(sync.estimate().uncertainty).toBeGreaterThan(3);
    expect(sync.nextDelay()).toBe(500);
    simulate(sync, { offset: 0, n: 1, delay: () => 0.5, start: 2_000_000 });
    expect(sync.estimate().uncertainty).toBeLessThanOrEqual(3);
    expect(sync.nextDelay()).toBe(3000);
  });

  test('stops refining when more pings no longer tighten the bound (an internet path), and starts again on a new path', () => {
    // The page's settings: target 2 ms, refine 4 a second. Over the internet (20–35 ms each way)
    // the bound's floor is ~10 ms: pinging 4 a second for ever would cost a request each at the edge.
    const sync = createClockSync({
      schedule: [{ until: 8, every: 70 }],
      steadyEvery: 3000,
      targetUncertainty: 2,
      refineEvery: 250,
      refinePatience: 40,
    });
    const random = createSeededRandom(7);
    const internet = () => 20 + random() * 15;
    let t = simulate(sync, { offset: 5000, n: 8, delay: internet, spacing: 70 });
    expect(sync.nextDelay()).toBe(250); // still learning the path's floor
    t = simulate(sync, { offset: 5000, n: 60, delay: internet, spacing: 250, start: t });
    expect(sync.estimate().uncertainty).toBeGreaterThan(2);
    expect(sync.nextDelay()).toBe(3000); // settled: the bound stopped getting tighter
    // A bound twice the best (the drift of a long wait, or a worse path) refines again.
    sync.addSample({ c: t + 600_000, s: t + 600_000 + 5000 + 60, r: t + 600_000 + 120 });
    expect(sync.nextDelay()).toBe(250);
  });

  test('integer server stamps (Date.now) widen the bound by their 1 ms truncation; fractional ones do not', () => {
    const int = createClockSync({ driftPpm: 0 });
    int.addSample({ c: 0, s: 100, r: 10 });
    expect(int.estimate()).toMatchObject({ offset: 95.5, uncertainty: 5.5 });
    const frac = createClockSync({ driftPpm: 0 });
    frac.addSample({ c: 0, s: 100.25, r: 10 });
    expect(frac.estimate()).toMatchObject({ offset: 95.25, uncertainty: 5 });
  });

  test('in-flight pings are bounded', () => {
    const sync = createClockSync();
    const first = sync.ping(0);
    for (let i = 0; i < 40; i += 1) sync.ping(i);
    expect(sync.pong({ type: 'pong', id: first.id, c: 0, s: 0 }, 1)).toBe(false);
  });
});
