// How often clock-sync.js pings: fast while it learns a fresh window (a schedule by samples taken),
// then faster while the bound is wider than the target and still getting tighter, slowly once it
// is tight or refining stopped helping (over the internet the bound never reaches a LAN's target).

/**
 * @param {object} options
 * @param {Array<{ until: number, every: number }>} options.schedule ping spacing while fewer than `until` samples were taken
 * @param {number} options.steadyEvery spacing afterwards while the bound is tight (ms)
 * @param {number} options.targetUncertainty bound (ms) above which pinging speeds up to `refineEvery`
 * @param {number} options.refineEvery spacing while the bound is wider than the target (ms)
 * @param {number} options.refinePatience refining samples without a 10 % tighter bound before it settles
 */
export function createPingPace({ schedule, steadyEvery, targetUncertainty, refineEvery, refinePatience }) {
  let learned = 0; // samples since creation or the last restart: drives the learning schedule
  /** The tightest bound seen, and samples since it last got 10 % tighter: refining stops when it stops helping. */
  let best = Infinity;
  let sinceBetter = 0;

  return {
    /** A fresh window: learn again from the first step of the schedule. */
    restart() {
      learned = 0;
      best = Infinity;
      sinceBetter = 0;
    },
    /**
     * A sample was taken and gave this bound: follow whether more samples still tighten it; a
     * bound twice the best (a new path) starts over.
     * @param {number} uncertainty
     */
    sampled(uncertainty) {
      learned += 1;
      if (uncertainty < best * 0.9 || uncertainty > best * 2) {
        best = uncertainty;
        sinceBetter = 0;
      } else sinceBetter += 1;
    },
    /**
     * How long to wait before the next ping.
     * @param {import('./clock-sync.js').ClockEstimate | null} current
     * @param {boolean} stale the window is distrusted: the next sample starts a fresh one
     */
    nextDelay(current, stale) {
      const n = stale ? 0 : learned;
      for (const step of schedule) if (n < step.until) return step.every;
      // Keep refining: ping faster while the bound is wider than wanted (a jittery network needs
      // more exchanges to catch fast legs; old samples widen with drift), slowly once it is tight,
      // and slowly too once refining stopped making it tighter (the path's own floor).
      const refining = current && current.uncertainty > targetUncertainty && sinceBetter < refinePatience;
      return refining ? Math.min(refineEvery, steadyEvery) : steadyEvery;
    },
  };
}
