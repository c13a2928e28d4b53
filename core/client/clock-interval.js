// The arithmetic of clock-sync.js on a window of samples, without state: the interval each sample
// proves the offset (server − viewer) lies in, widened for drift since it was taken; their
// intersection; which sample to evict; the newest samples that still agree after a clock step;
// and the estimate a window gives. The reasoning is in clock-sync.js's header.

/**
 * @typedef {object} ClockLimits
 * @property {number} drift assumed worst relative drift of the two clocks (a fraction, 50 ppm = 5e-5)
 * @property {number | undefined} resolution granularity of the server stamp; undefined: 1 ms for integer stamps, 0 for fractional ones
 */

/** A whole-ms stamp (Date.now) was truncated: the reading lies in [s, s + 1). Fractional stamps are exact enough. */
const resolutionOf = (/** @type {number} */ s, /** @type {number | undefined} */ resolution) => resolution ?? (Number.isInteger(s) ? 1 : 0);

/**
 * The intersection of the samples' intervals, widened for drift since each was taken, seen at `ref`.
 * @param {import('./clock-sync.js').ClockSample[]} list
 * @param {number} ref viewer clock the widening is measured to (the newest sample's r)
 * @param {ClockLimits} limits
 * @returns {{ lo: number, hi: number }} lo > hi when the samples contradict each other
 */
export function intervalOf(list, ref, { drift, resolution }) {
  let lo = -Infinity;
  let hi = Infinity;
  for (const x of list) {
    lo = Math.max(lo, x.s - x.r - drift * (ref - x.r));
    hi = Math.min(hi, x.s + resolutionOf(x.s, resolution) - x.c + drift * (ref - x.c));
  }
  return { lo, hi };
}

/**
 * Drop (in place) the oldest sample that does not hold up either edge of the interval: a lucky
 * fast leg stays useful (widening with age) until a fresher one beats it, instead of falling out
 * of a plain first-in-first-out window after a fixed number of pings.
 * @param {import('./clock-sync.js').ClockSample[]} samples at least three
 * @param {number} ref
 * @param {ClockLimits} limits
 */
export function evictOne(samples, ref, limits) {
  let loAt = 0;
  let hiAt = 0;
  let lo = -Infinity;
  let hi = Infinity;
  samples.forEach((x, i) => {
    const b = intervalOf([x], ref, limits);
    if (b.lo > lo) [lo, loAt] = [b.lo, i];
    if (b.hi < hi) [hi, hiAt] = [b.hi, i];
  });
  const victim = samples.findIndex((_, i) => i !== loAt && i !== hiAt);
  samples.splice(victim, 1);
}

/**
 * After a contradiction (the clocks stepped): the newest samples that still agree, and their interval.
 * @param {import('./clock-sync.js').ClockSample[]} samples
 * @param {number} ref
 * @param {ClockLimits} limits
 * @returns {{ kept: import('./clock-sync.js').ClockSample[], lo: number, hi: number }}
 */
export function newestAgreeing(samples, ref, limits) {
  let keep = 0;
  let lo = -Infinity;
  let hi = Infinity;
  for (let i = samples.length - 1; i >= 0; i -= 1) {
    const one = intervalOf([samples[i]], ref, limits);
    const nl = Math.max(lo, one.lo);
    const nh = Math.min(hi, one.hi);
    if (nl > nh) break;
    lo = nl;
    hi = nh;
    keep += 1;
  }
  return { kept: samples.slice(samples.length - keep), lo, hi };
}

/**
 * The estimate a window of agreeing samples gives: the middle of their interval, half its width
 * as the bound, and the round trips and the classic NTP estimate beside it.
 * @param {import('./clock-sync.js').ClockSample[]} samples at least one
 * @param {{ lo: number, hi: number }} interval their intersection (lo ≤ hi)
 * @param {ClockLimits} limits
 * @returns {import('./clock-sync.js').ClockEstimate}
 */
export function estimateOf(samples, { lo, hi }, { resolution }) {
  const byRtt = samples
    .map((x) => ({ rtt: x.r - x.c, off: x.s + resolutionOf(x.s, resolution) / 2 - (x.c + x.r) / 2 }))
    .sort((a, b) => a.rtt - b.rtt);
  const fastest = byRtt.slice(0, Math.max(1, Math.ceil(byRtt.length / 4)));
  const recent = samples.slice(-8).map((x) => x.r - x.c);
  const uncertainty = (hi - lo) / 2;
  return {
    offset: (lo + hi) / 2,
    uncertainty,
    quality: uncertainty <= 5 ? 'good' : uncertainty <= 25 ? 'fair' : 'poor',
    rtt: median(recent),
    minRtt: byRtt[0].rtt,
    ntpOffset: median(fastest.map((b) => b.off)),
    samples: samples.length,
  };
}

/** @param {number[]} values */
function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}
