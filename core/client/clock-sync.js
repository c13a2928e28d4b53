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
// the caller owns the clock, the timers and the transport. The window's arithmetic is
// clock-interval.js, the ping spacing ping-pace.js; this file keeps the window and the pings in flight.

import { intervalOf, evictOne, newestAgreeing, estimateOf } from './clock-interval.js';
import { createPingPace } from './ping-pace.js';

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
 *   4 times a second for ever costs the edge a request each (docs/explanation/edge-cost.md#capacity-and-cost) (default 40)
 * @returns {ClockSync}
 */
export function createClockSync(options = {}) {
  const windowSize = options.window ?? 64;
  /** @type {import('./clock-interval.js').ClockLimits} */
  const limits = { drift: (options.driftPpm ?? 50) / 1e6, resolution: options.serverResolutionMs };
  const pace = createPingPace({
    schedule: options.schedule ?? [
      { until: 24, every: 50 },
      { until: 64, every: 250 },
    ],
    steadyEvery: options.steadyEvery ?? 3000,
    targetUncertainty: options.targetUncertainty ?? 3,
    refineEvery: options.refineEvery ?? 500,
    refinePatience: options.refinePatience ?? 40,
  });

  /** @type {ClockSample[]} */
  let samples = [];
  /** @type {Map<number, number>} id → c of pings in flight */
  const pending = new Map();
  let nextId = 1;
  let total = 0;
  let stale = false;
  /** @type {ClockEstimate | null} */
  let current = null;

  /** The window's estimate; a contradiction (the clocks stepped) keeps the newest samples that still agree. */
  function recompute() {
    const ref = samples[samples.length - 1].r;
    let interval = intervalOf(samples, ref, limits);
    if (interval.lo > interval.hi) {
      const agreeing = newestAgreeing(samples, ref, limits);
      samples = agreeing.kept;
      interval = agreeing;
    }
    current = estimateOf(samples, interval, limits);
  }

  /** @param {ClockSample} sample */
  function addSample(sample) {
    const { c, s, r } = sample;
    if (![c, s, r].every(Number.isFinite) || r < c) return false;
    if (stale) {
      samples = [];
      pace.restart();
      stale = false;
    }
    samples.push({ c, s, r });
    if (samples.length > windowSize) evictOne(samples, r, limits);
    total += 1;
    recompute();
    pace.sampled(current.uncertainty);
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
    nextDelay: () => pace.nextDelay(current, stale),
    invalidate() {
      stale = true;
      pending.clear();
    },
    count: () => total,
  };
}
