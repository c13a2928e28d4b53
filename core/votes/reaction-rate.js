// The audience's reaction level (docs/reference/audience-protocol.md#audience-voices): taps per second across the whole
// audience, smoothed, as a number from 0 to 1. Pure: the caller adds taps as they arrive and
// ticks it a few times a second with its clock.

/** Each tick moves the smoothed rate this far towards the rate just measured. */
export const SMOOTHING = 0.5;

/**
 * @param {{ now: number, smoothing?: number }} options
 */
export function createReactionRate({ now, smoothing = SMOOTHING }) {
  let pending = 0;
  let last = now;
  let smoothed = 0;
  return {
    /** @param {number} n taps just counted */
    add(n) {
      pending += n;
    },
    /**
     * Measure the rate since the last tick and return the level.
     * @param {number} at clock ms
     * @param {number} full taps per second that read as level 1
     * @returns {{ rate: number, level: number }} rate smoothed (taps/s); level in [0, 1], two decimals
     */
    tick(at, full) {
      const seconds = Math.max(0.001, (at - last) / 1000);
      const rate = pending / seconds;
      pending = 0;
      last = at;
      smoothed += smoothing * (rate - smoothed);
      if (smoothed < 0.01) smoothed = 0;
      const level = Math.round(Math.min(1, smoothed / Math.max(1, full)) * 100) / 100;
      return { rate: smoothed, level };
    },
  };
}

/**
 * Reaction windows of a score in beats.
 * @param {any} score a validated score
 * @param {{ indexOf: (bar: number, beat: number) => number }} timeline
 * @returns {{ open: number, close: number, label: string, full: number | null }[]}
 */
export function planReactions(score, timeline) {
  return (score.reactions ?? []).map((r) => ({
    open: timeline.indexOf(r.at.bar, r.at.beat),
    close: timeline.indexOf(r.until.bar, r.until.beat),
    label: r.label ?? 'Tap',
    full: r.full ?? null,
  }));
}
