// The flash limit (web/audience/src/flash-limit.js; docs/reference/accessibility-and-languages.md#accessibility):
// never more than three flashes in any second (WCAG 2.3.1), whatever the tempo and meter.
import { createBeatFlashLimit, createGapGate, EVERY_BEAT_MAX_BPM } from '../../web/audience/src/flash-limit.js';
import { mostInOneSecond } from './support/a11y-probes.js';

/** Beats of `beats`-beat bars at `bpm` for `seconds`, through the limit: the times that flash. */
function flashes(bpm, beats, seconds) {
  const limit = createBeatFlashLimit();
  const out = [];
  for (let i = 0, at = 0; at < seconds * 1000; i += 1, at = (i * 60_000) / bpm) {
    if (limit.flash({ beat: (i % beats) + 1, at, bpm })) out.push({ at });
  }
  return out;
}

test.each([
  [60, 4],
  [120, 4],
  [171, 4],
  [172, 4],
  [200, 4],
  [240, 3],
  [300, 1],
  [400, 1],
  [600, 2],
])('%d bpm in %d: at most three flashes in any second', (bpm, beats) => {
  const f = flashes(bpm, beats, 20);
  expect(mostInOneSecond(f)).toBeLessThanOrEqual(3);
  expect(f.length).toBeGreaterThan(0);
});

test('every beat up to 171 bpm, downbeats only above', () => {
  expect(EVERY_BEAT_MAX_BPM).toBeCloseTo(171.43, 1);
  expect(flashes(120, 4, 10)).toHaveLength(20);
  expect(flashes(200, 4, 12)).toHaveLength(10); // a bar is 1.2 s
});

test('a seek back in time starts afresh', () => {
  const gate = createGapGate(350);
  expect(gate.pass(10_000)).toBe(true);
  expect(gate.pass(10_100)).toBe(false);
  expect(gate.pass(2_000)).toBe(true);
});
