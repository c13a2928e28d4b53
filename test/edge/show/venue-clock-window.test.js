// The edge's estimate of the venue's clock (edge-worker/src/show/venue-clock.js), on a fake edge clock:
// the smallest (edge − t) of recent frames wins, late frames do not pull it up, old samples age
// out after WINDOW_MS, a stored offset seeds it after a restart, and junk is ignored.
import { expect, test } from '@jest/globals';
import { BUCKET_MS, STEP_MS, WINDOW_MS, createVenueClock } from '../../../edge-worker/src/show/venue-clock.js';

test('the fastest frame of the window sets the offset; slow ones and junk do not move it', () => {
  let edgeNow = 1_000_000;
  const clock = createVenueClock({ now: () => edgeNow });
  expect(clock.offset()).toBe(0);
  // The venue runs 60 s behind; frames take 20–900 ms to arrive.
  for (const delay of [300, 20, 900, 45]) {
    edgeNow += 500;
    const venueTimeWhenSent = edgeNow - delay - 60_000;
    clock.observe(venueTimeWhenSent);
  }
  expect(clock.offset()).toBe(60_020);
  for (const junk of [NaN, '5', null, Infinity]) clock.observe(junk);
  expect(clock.offset()).toBe(60_020);
  expect(clock.now()).toBe(edgeNow - 60_020);
  expect(clock.stats()).toEqual({ offsetMs: 60_020, samples: 4, steps: 0 });
});

test('samples older than the window are forgotten, so a changed clock is followed', () => {
  let edgeNow = 5_000_000;
  const clock = createVenueClock({ now: () => edgeNow });
  clock.observe(edgeNow - 10); // offset 10
  edgeNow += WINDOW_MS / 2;
  clock.observe(edgeNow - 70); // 70, newer
  expect(clock.offset()).toBe(10);
  edgeNow += WINDOW_MS / 2 + BUCKET_MS;
  expect(clock.offset()).toBe(70);
  edgeNow += WINDOW_MS + BUCKET_MS;
  expect(clock.offset()).toBe(0);
});

test('a stored offset seeds a fresh clock, and never overrides a measured one', () => {
  const clock = createVenueClock({ now: () => 42_000 });
  clock.seed(-59_980);
  expect(clock.offset()).toBe(-59_980);
  const measured = createVenueClock({ now: () => 42_000 });
  measured.observe(42_000 - 15);
  measured.seed(900);
  expect(measured.offset()).toBe(15);
  const bad = createVenueClock({ now: () => 42_000 });
  bad.seed('x');
  expect(bad.offset()).toBe(0);
});

test('after the laptop slept its clock is behind by the sleep: the edge follows once every sample for 30 s says so, not on a passing delay', () => {
  let edgeNow = 9_000_000;
  const clock = createVenueClock({ now: () => edgeNow });
  const frame = (offset, delay = 10) => clock.observe(edgeNow - delay - offset);
  for (let i = 0; i < 20; i += 1, edgeNow += 500) frame(0);
  expect(clock.offset()).toBe(10);
  // A storm: 20 s of frames 2 s late, then normal again. The offset does not move.
  for (let i = 0; i < 40; i += 1, edgeNow += 500) frame(0, 2000);
  frame(0);
  expect(clock.offset()).toBe(10);
  expect(clock.stats().steps).toBe(0);
  // The laptop slept 45 s: its clock now reads 45 s less. Until STEP_MS passed, the old minimum holds.
  for (let i = 0; i < STEP_MS / 500; i += 1, edgeNow += 500) frame(45_000);
  expect(clock.offset()).toBe(10);
  for (let i = 0; i < 30; i += 1, edgeNow += 500) frame(45_000);
  expect(clock.offset()).toBe(45_010);
  expect(clock.stats().steps).toBe(1);
});
