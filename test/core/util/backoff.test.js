import { backoffDelay } from '#core/util/backoff.js';

test('doubles from the base up to the cap', () => {
  const at = (n) => backoffDelay(n, { baseMs: 250, capMs: 5000, jitter: false });
  expect([0, 1, 2, 3, 4, 5, 6, 60].map(at)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test('equal jitter: between half the ceiling and the ceiling, never zero', () => {
  expect(backoffDelay(2, { baseMs: 250, capMs: 5000, random: () => 0 })).toBe(500);
  expect(backoffDelay(2, { baseMs: 250, capMs: 5000, random: () => 0.999999 })).toBeCloseTo(1000, 2);
  expect(backoffDelay(-3, { baseMs: 250, capMs: 5000, random: () => 0 })).toBe(125);
});
