// Clock-offset estimation between a viewer and the server, NTP-style: the viewer stamps a ping
// when it leaves (c), the server stamps it (s), the viewer stamps the answer when it arrives (r).
//
// Each exchange proves that the server clock read `s` somewhere between c and r on the viewer's
// clock, so the offset (server − viewer) lies in [s − r, s − c]. NTP keeps the fastest round trips
// and takes the median offset of those; we compute that too (`ntpOffset`), but the answer we use
// is the intersection of every sample's interval: its lower edge is set by the sample with the
// fastest *return* leg and its upper edge by the fastest *outbound* leg, even when those were
// different pings. On a jittery network that is several times tighter than the best round trip
// alone, and it comes with an honest error bound (half the intersection's width).
//
// Clocks drift (phones: tens of ppm), so each sample's interval widens with its age; a sample
// that contradicts newer ones (clock step, sleep) is dropped. The window evicts its oldest
// samples except the two that hold up the interval's edges, so a rare fast leg keeps helping. The estimator only does arithmetic:
// the caller owns the clock, the timers and the transport.

/**
 * @typedef {object} ClockSample
 * @property {number} c viewer clock when the ping left (ms)
 * @property {number} s server clock in the answer (ms)
 * @property {number} r viewer clock when the answer arrived (ms)
 *
 * @typedef {object} ClockEstimate
 * @property {number} offset server − viewer, ms: serverTime = viewerTime + offset
 * @property {number} uncertainty half-width of the interval the true offset is in (ms)
 * @property {'good' | 'fair' | 'poor'} quality good ≤ 5 ms, fair ≤ 25 ms, else poor
 * @property {number} rtt median round trip of the last few exchanges (ms)
 * @property {number} minRtt fastest round trip in the window (ms)
 * @property {number} ntpOffset the classic estimate: median offset of the fastest round trips
 * @property {number} samples exchanges in the window
 *
 * @typedef {object} ClockSync
 * @property {(c: number) => { id: number, c: number }} ping register an outgoing ping stamped c
 * @property {(pong: unknown, r: number) => boolean} pong feed a `{type:"pong",id,c,s}` frame received at r; false when unknown/invalid
 * @property {(sample: ClockSample) => boolean} addSample feed an exchange directly (e.g. GET /time)
 * @property {() => ClockEstimate | null} estimate null before the first sample
 * @property {(viewerMs: number) => number} toServer
 * @property {(serverMs: number) => number} toLocal
 * @property {() => number} nextDelay how long to wait before the next ping (fast while learning, then slow)
 * @property {() => void} invalidate distrust the window (after sleep): the next sample starts a fresh one
 * @property {() => number} count samples accepted since creation
 */

/**
 * @param {object} [options]
 * @param {number} [options.window] samples kept (default 64)
 * @param {number} [options.driftPpm] assumed worst relative drift of the two clocks (default 50 ppm)
 * @param {number} [options.serverResolutionMs] granularity of the server stamp (default: 1 ms for integer stamps, 0 for fractional ones)
 * @param {Array<{ until: number, every: number }>} [options.schedule] ping spacing while fewer than `until` samples were taken (since creation or invalidate)
 * @param {number} [options.steadyEvery] ping spacing afterwards while the bound is tight (ms)
 * @param {number} [options.targetUncertainty] bound (ms) above which pinging speeds up to `refineEvery` (default 3)
 * @param {number} [options.refineEvery] ping spacing while the bound is wider than the target (default 500 ms)
 * @param {number} [options.refinePatience] refining pings without a better bound (by 10 %) before it
 *   settles at `steadyEvery`: over the internet the bound never reaches a LAN's target, and pinging
 *   4 times a second for ever costs the edge a request each (edge-worker/README.md, cost) (default 40)
 * @returns {ClockSync}
 */
export function createClockSync(options = {}) {
  const windowSize = options.window ?? 64;
  const drift = (options.driftPpm ?? 50) / 1e6;
  const resolution = options.serverResolutionMs;
  const schedule = options.schedule ?? [
    { until: 24, every: 50 },
    { until: 64, every: 250 },
  ];
  const steadyEvery = options.steadyEvery ?? 3000;
  const target = options.targetUncertainty ?? 3;
  const refineEvery = options.refineEvery ?? 500;
  const refinePatience = options.refinePatience ?? 40;

  /** @type {ClockSample[]} */
  let samples = [];
  /** @type {Map<number, number>} id → c of pings in flight */
  const pending = new Map();
  let nextId = 1;
  let total = 0;
  let learned = 0; // samples since creation or the last invalidate: drives the learning schedule
  let stale = false;
  /** @type {ClockEstimate | null} */
  let current = null;
  /** The tightest bound seen, and samples since it last got 10 % tighter: refining stops when it stops helping. */
  let best = Infinity;
  let sinceBetter = 0;

  /** Follow whether more samples still tighten the bound; a bound twice the best (a new path) starts over. */
  function noteProgress() {
    if (!current) return;
    if (current.uncertainty < best * 0.9 || current.uncertainty > best * 2) {
      best = current.uncertainty;
      sinceBetter = 0;
    } else sinceBetter += 1;
  }

  /** A whole-ms stamp (Date.now) was truncated: the reading lies in [s, s + 1). Fractional stamps are exact enough. */
  const resOf = (s) => resolution ?? (Number.isInteger(s) ? 1 : 0);

  /** The intersection of the samples' intervals, widened for drift since each was taken. */
  function bounds(list, ref) {
    let lo = -Infinity;
    let hi = Infinity;
    for (const x of list) {
      lo = Math.max(lo, x.s - x.r - drift * (ref - x.r));
      hi = Math.min(hi, x.s + resOf(x.s) - x.c + drift * (ref - x.c));
    }
    return { lo, hi };
  }

  /**
   * Drop the oldest sample that does not hold up either edge of the interval: a lucky fast leg
   * stays useful (widening with age) until a fresher one beats it, instead of falling out of a
   * plain first-in-first-out window after a fixed number of pings.
   */
  function evictOne(ref) {
    let loAt = 0;
    let hiAt = 0;
    let lo = -Infinity;
    let hi = Infinity;
    samples.forEach((x, i) => {
      const b = bounds([x], ref);
      if (b.lo > lo) [lo, loAt] = [b.lo, i];
      if (b.hi < hi) [hi, hiAt] = [b.hi, i];
    });
    const victim = samples.findIndex((_, i) => i !== loAt && i !== hiAt);
    samples.splice(victim, 1);
  }

  function recompute() {
    const ref = samples[samples.length - 1].r;
    let { lo, hi } = bounds(samples, ref);
    if (lo > hi) {
      // Contradiction: the clocks stepped. Keep the newest samples that still agree.
      let keep = 0;
      let l = -Infinity;
      let h = Infinity;
      for (let i = samples.length - 1; i >= 0; i -= 1) {
        const one = bounds([samples[i]], ref);
        const nl = Math.max(l, one.lo);
        const nh = Math.min(h, one.hi);
        if (nl > nh) break;
        l = nl;
        h = nh;
        keep += 1;
      }
      samples = samples.slice(samples.length - keep);
      lo = l;
      hi = h;
    }
    const byRtt = samples.map((x) => ({ rtt: x.r - x.c, off: x.s + resOf(x.s) / 2 - (x.c + x.r) / 2 })).sort((a, b) => a.rtt - b.rtt);
    const best = byRtt.slice(0, Math.max(1, Math.ceil(byRtt.length / 4)));
    const recent = samples.slice(-8).map((x) => x.r - x.c);
    const uncertainty = (hi - lo) / 2;
    current = {
      offset: (lo + hi) / 2,
      uncertainty,
      quality: uncertainty <= 5 ? 'good' : uncertainty <= 25 ? 'fair' : 'poor',
      rtt: median(recent),
      minRtt: byRtt[0].rtt,
      ntpOffset: median(best.map((b) => b.off)),
      samples: samples.length,
    };
  }

  /** @param {ClockSample} sample */
  function addSample(sample) {
    const { c, s, r } = sample;
    if (![c, s, r].every(Number.isFinite) || r < c) return false;
    if (stale) {
      samples = [];
      learned = 0;
      stale = false;
      best = Infinity;
      sinceBetter = 0;
    }
    samples.push({ c, s, r });
    if (samples.length > windowSize) evictOne(r);
    total += 1;
    learned += 1;
    recompute();
    noteProgress();
    return true;
  }

  return {
    ping(c) {
      const id = nextId;
      nextId += 1;
      pending.set(id, c);
      // Lost pongs must not pile up: keep the last few dozen in flight.
      if (pending.size > 32) pending.delete(pending.keys().next().value);
      return { id, c };
    },
    pong(frame, r) {
      if (typeof frame !== 'object' || frame === null) return false;
      const { id, c, s } = /** @type {Record<string, unknown>} */ (frame);
      if (typeof id !== 'number' || !pending.has(id)) return false;
      const sent = pending.get(id);
      pending.delete(id);
      // Trust our own stamp, not the echo: a server cannot skew the sample by echoing another c.
      if (c !== sent || typeof s !== 'number') return false;
      return addSample({ c: sent, s, r });
    },
    addSample,
    estimate: () => current,
    toServer: (viewerMs) => viewerMs + (current ? current.offset : 0),
    toLocal: (serverMs) => serverMs - (current ? current.offset : 0),
    nextDelay() {
      const n = stale ? 0 : learned;
      for (const step of schedule) if (n < step.until) return step.every;
      // Keep refining: ping faster while the bound is wider than wanted (a jittery network needs
      // more exchanges to catch fast legs; old samples widen with drift), slowly once it is tight,
      // and slowly too once refining stopped making it tighter (the path's own floor).
      const refining = current && current.uncertainty > target && sinceBetter < refinePatience;
      return refining ? Math.min(refineEvery, steadyEvery) : steadyEvery;
    },
    invalidate() {
      stale = true;
      pending.clear();
    },
    count: () => total,
  };
}

/** @param {number[]} values */
function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}
