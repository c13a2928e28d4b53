// A small seeded PRNG (mulberry32): reproducible "random" for generated scores, simulated
// networks and load-test arrival times. Not for anything secret.

/**
 * @param {number} seed any 32-bit integer
 * @returns {() => number} uniform in [0, 1)
 */
export function createSeededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
