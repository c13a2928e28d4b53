// When phones arrive in ZScore's page-load test: bursts of 1–5 at random 0–1 s gaps
// (≈ 6 phones a second on average; ZScore quotes 200 clients ≈ 50 s). Seeded, so two runs with
// the same seed put the same load on the server.

import { createSeededRandom } from '#core/util/seeded-random.js';

/** The seeded PRNG (mulberry32) the arrival schedule draws from; re-exported for the tests. */
export const createRandom = createSeededRandom;

/**
 * @param {{ seed?: number, minSize?: number, maxSize?: number, maxGapMs?: number }} [options]
 * @returns {{ next: () => { offsetMs: number, burst: number } }} arrival offsets from the first phone
 */
export function createBurstSchedule({ seed = 1, minSize = 1, maxSize = 5, maxGapMs = 1000 } = {}) {
  const random = createRandom(seed);
  let left = 0;
  let burst = 0;
  let at = 0;
  return {
    next() {
      if (left === 0) {
        if (burst > 0) at += random() * maxGapMs;
        burst += 1;
        left = minSize + Math.floor(random() * (maxSize - minSize + 1));
      }
      left -= 1;
      return { offsetMs: Math.round(at), burst };
    },
  };
}
