// When phones arrive in ZScore's page-load test: bursts of 1–5 at random 0–1 s gaps
// (≈ 6 phones a second on average; ZScore quotes 200 clients ≈ 50 s). Seeded, so two runs with
// the same seed put the same load on the server.

/**
 * A small, fast, seedable PRNG (mulberry32); good enough for arrival times.
 * @param {number} seed
 * @returns {() => number} uniform in [0, 1)
 */
export function createRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
