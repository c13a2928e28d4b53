// Small statistics helpers for benchmarks: percentiles of plain arrays and medians of runs.

/**
 * Nearest-rank percentile of numbers (p in 0..100); NaN for an empty list.
 * @param {number[]} values
 * @param {number} p
 */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/**
 * Median of the finite numbers in a list (mean of the middle two when even); NaN when none.
 * @param {Array<number | null | undefined>} values
 */
export function median(values) {
  const finite = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v))).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
}

/**
 * p50 / p99 / max / mean of a list of numbers.
 * @param {number[]} values
 */
export function summarize(values) {
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.length ? Math.max(...values) : NaN,
    mean: values.length ? sum / values.length : NaN,
  };
}

/** Round for reports (keeps JSON readable); non-finite numbers become null. */
export function round(value, digits = 2) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
