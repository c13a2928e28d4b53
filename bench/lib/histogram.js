// A mergeable latency histogram with 3 significant digits (≤ 0.5 % error), so client processes
// can record millions of samples cheaply and the runner can merge them and read exact-enough
// percentiles. Values are milliseconds; the exact min and max are kept on the side.

/** Bucket key of a value: the value rounded to 3 significant digits (0 for anything < 1 µs). */
export function bucketOf(value) {
  if (!(value >= 0.001)) return 0;
  const scale = 10 ** (Math.floor(Math.log10(value)) - 2);
  return Math.round(value / scale) * scale;
}

/**
 * @returns {{ record: (v: number) => void, merge: (h: { buckets: Array<[number, number]>, count: number, min: number, max: number, negatives: number, sum: number }) => void,
 *   percentile: (p: number) => number, toJSON: () => { buckets: Array<[number, number]>, count: number, min: number, max: number, negatives: number, sum: number }, count: () => number, max: () => number, mean: () => number }}
 */
export function createHistogram() {
  /** @type {Map<number, number>} */
  const buckets = new Map();
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  // Negative values mean the clocks disagree (offset error); kept visible instead of hidden.
  let negatives = 0;

  const add = (key, n) => buckets.set(key, (buckets.get(key) ?? 0) + n);

  return {
    record(v) {
      count += 1;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      if (v < 0) negatives += 1;
      add(bucketOf(v), 1);
    },
    merge(h) {
      for (const [key, n] of h.buckets) add(key, n);
      count += h.count;
      sum += h.sum;
      negatives += h.negatives;
      if (h.count > 0) {
        min = Math.min(min, h.min);
        max = Math.max(max, h.max);
      }
    },
    /** Nearest-rank percentile (p in 0..100); NaN when empty. */
    percentile(p) {
      if (count === 0) return NaN;
      const rank = Math.max(1, Math.ceil((p / 100) * count));
      const keys = [...buckets.keys()].sort((a, b) => a - b);
      let seen = 0;
      for (const key of keys) {
        seen += /** @type {number} */ (buckets.get(key));
        if (seen >= rank) return Math.min(Math.max(key, min), max);
      }
      return max;
    },
    toJSON: () => ({ buckets: [...buckets], count, sum, min, max, negatives }),
    count: () => count,
    max: () => (count ? max : NaN),
    mean: () => (count ? sum / count : NaN),
  };
}
