// Reads the few numbers a benchmark needs out of Prometheus text exposition format.

/**
 * Parse Prometheus text into a map from "name{labels}" (labels as written) to value.
 * @param {string} text
 * @returns {Map<string, number>}
 */
export function parsePromText(text) {
  const values = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/**
 * A histogram's buckets, sum and count (difference between two scrapes when `before` is given).
 * @param {Map<string, number>} after
 * @param {string} name metric name without _bucket/_sum/_count
 * @param {Map<string, number>} [before]
 */
export function histogramDelta(after, name, before = new Map()) {
  const diff = (key) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const buckets = [];
  for (const key of after.keys()) {
    const m = new RegExp(`^${name}_bucket\\{.*le="([^"]+)".*\\}$`).exec(key);
    if (m) buckets.push({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), count: diff(key) });
  }
  buckets.sort((a, b) => a.le - b.le);
  return { buckets, sum: diff(`${name}_sum`), count: diff(`${name}_count`) };
}

/**
 * Upper bound of the bucket holding the p-th percentile (what a histogram can honestly say).
 * @param {{ buckets: Array<{ le: number, count: number }>, count: number }} histogram cumulative buckets
 * @param {number} p 0..100
 */
export function bucketPercentile(histogram, p) {
  if (histogram.count <= 0) return NaN;
  const rank = (p / 100) * histogram.count;
  for (const b of histogram.buckets) if (b.count >= rank) return b.le;
  return Infinity;
}

/**
 * Sum of every series of a counter (all label sets), optionally only those whose labels contain `filter`.
 * @param {Map<string, number>} values
 * @param {string} name
 * @param {string} [filter] e.g. 'transport="ws"'
 */
export function counterTotal(values, name, filter = '') {
  let total = 0;
  for (const [key, v] of values) {
    if ((key === name || key.startsWith(`${name}{`)) && key.includes(filter)) total += v;
  }
  return total;
}
