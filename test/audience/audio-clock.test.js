// The page clock → audio clock mapping (web/audience/src/audio-clock.js) with the output
// timestamps real engines gave (docs/explanation/browser-differences.md#what-differs). WebKit's
// performanceTime runs ahead of performance.now() by the context's age (2254 vs 1223 ms at a
// context age of 1.03 s, 12337 vs 6265 at 6.07 s): trusted, every cue computed as seconds late and
// was skipped, and the part page scheduled no click.
import { jest } from '@jest/globals';
import { contextTime, clockSource } from '../../web/audience/src/audio-clock.js';

/** A fake context whose clock and output timestamp the test sets, with performance.now() pinned. */
function fakeEngine({ outputLatency = 0 } = {}) {
  let now = 0;
  const ctx = { currentTime: 0, outputLatency, ts: null, getOutputTimestamp: () => ctx.ts };
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  return {
    ctx,
    /** One instant: performance.now(), the context's currentTime and its output timestamp. */
    at(perfNow, currentTime, ts) {
      now = perfNow;
      ctx.currentTime = currentTime;
      ctx.ts = ts;
    },
    /** Page-clock ms for `ms` after performance.now(). */
    ahead: (ms) => performance.timeOrigin + now + ms,
  };
}

afterEach(() => jest.restoreAllMocks());

test("WebKit's output timestamp (ahead by the context's age) is caught: a cue 300 ms ahead maps 300 ms ahead on the audio clock", () => {
  const e = fakeEngine();
  // Context created at performance.now() = 192 ms; the figures WebKitGTK 2.50 reported.
  e.at(1223, 1.03, { contextTime: 1.03, performanceTime: 2254 });
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(1.33, 3);
  e.at(6265, 6.07, { contextTime: 6.07, performanceTime: 12337 });
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(6.37, 3);
  expect(clockSource(e.ctx)).toBe('current-time');
});

test("WebKit caught by its rate even while its error is still small: the context's first second is not trusted blindly", () => {
  const e = fakeEngine();
  // At a context age of 20 ms the timestamp is only 20 ms ahead: within tolerance, used.
  e.at(212, 0.02, { contextTime: 0.02, performanceTime: 232 });
  expect(clockSource(e.ctx)).toBe('output-timestamp');
  // 0.6 s of context time later, 1.2 s of performanceTime have gone by (rate 2000 ms/s; a busy
  // page read it late, so it is not ahead of now): distrusted for good, even when a later
  // timestamp happens to look plausible.
  e.at(1440, 0.62, { contextTime: 0.62, performanceTime: 232 + 1200 });
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(0.92, 3);
  e.at(2000, 1.808, { contextTime: 1.8, performanceTime: 1990 });
  expect(clockSource(e.ctx)).toBe('current-time');
});

test("a sane output timestamp (Chromium's: a little in the past, same rate) is still used, latency included", () => {
  const e = fakeEngine({ outputLatency: 0.04 });
  e.at(1000, 1.0, { contextTime: 0.97, performanceTime: 990 });
  // 300 ms ahead of now = 310 ms after the timestamp's instant.
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(0.97 + 0.31, 3);
  e.at(3000, 3.0, { contextTime: 2.97, performanceTime: 2990 });
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(2.97 + 0.31, 3);
  expect(clockSource(e.ctx)).toBe('output-timestamp');
});

test('no output timestamp (older Safari, Firefox before 70): currentTime minus the reported latency', () => {
  const e = fakeEngine({ outputLatency: 0.05 });
  e.ctx.getOutputTimestamp = undefined;
  e.at(500, 0.4, null);
  expect(contextTime(e.ctx, e.ahead(300))).toBeCloseTo(0.4 + 0.3 - 0.05, 3);
});
