// The venue's clock as the edge sees it (docs/reference/publisher-protocol.md; docs/explanation/clock-sync.md#the-venues-clock)
// . Every time in the state — `position.at`, a prompt's `opens`/`closes` — is on
// the venue server's clock, and phones show them on the clock of the server they sync with. A
// laptop whose clock is off (no NTP through the venue's firewall, a machine not synced for weeks)
// would put the edge's viewers seconds away from the hall, open their vote buttons at the wrong
// time and make the edge seal a prompt too early or too late. So the edge keeps time on the
// venue's clock: each publisher frame carries its creation time `t`; edge time − `t` is the
// clock offset plus the frame's one-way delay, and its minimum over recent frames is the offset
// plus the smallest delay (a few tens of ms on a real link: the edge then runs that much behind
// the venue, which a remote viewer cannot notice). The venue's clock cannot jump (it advances
// monotonically, local-server/src/server.js createServerClock), so a long window only has to
// follow the two clocks' drift — except across a laptop's sleep: its monotonic clock stops while
// the machine sleeps (macOS, Linux), so afterwards the venue's clock is behind by the sleep and
// every sample is larger than the old minimum. Samples that stay above it for STEP_MS are a step,
// not a slow network (a storm's delays come and go): the older samples are dropped.

/** Samples older than this are forgotten (the clocks drift apart by ~50 ppm at most: 15 ms). */
export const WINDOW_MS = 5 * 60_000;
/** The window is kept as the minimum of each bucket of this length (bounded memory). */
export const BUCKET_MS = 10_000;
/** Every sample this long above the minimum by more than STEP_TOLERANCE_MS: the venue's clock stepped back. */
export const STEP_MS = 30_000;
export const STEP_TOLERANCE_MS = 500;

/**
 * @param {{ now?: () => number }} [options] the edge's clock
 */
export function createVenueClock({ now = () => Date.now() } = {}) {
  /** @type {{ start: number, min: number }[]} oldest first */
  const buckets = [];
  let samples = 0;
  /** @type {number | null} since when every sample was above the minimum by more than STEP_TOLERANCE_MS */
  let aboveSince = null;
  let steps = 0;

  const minimum = () => buckets.reduce((min, b) => Math.min(min, b.min), Infinity);

  function prune(at) {
    while (buckets.length && buckets[0].start + BUCKET_MS <= at - WINDOW_MS) buckets.shift();
  }

  const clock = {
    /**
     * A publisher frame made at venue time `t` arrived now.
     * @param {unknown} t
     */
    observe(t) {
      if (typeof t !== 'number' || !Number.isFinite(t)) return;
      const at = now();
      const sample = at - t;
      if (sample <= minimum() + STEP_TOLERANCE_MS) aboveSince = null;
      else if (aboveSince === null) aboveSince = at;
      else if (at - aboveSince >= STEP_MS) {
        // Forget everything up to the bucket the step began in (it may hold samples from before);
        // the buckets after it hold only samples from after the step (STEP_MS > BUCKET_MS).
        const stepBucket = aboveSince - (aboveSince % BUCKET_MS);
        while (buckets.length && buckets[0].start <= stepBucket) buckets.shift();
        aboveSince = null;
        steps += 1;
      }
      const start = at - (at % BUCKET_MS);
      const last = buckets.at(-1);
      if (last && last.start === start) last.min = Math.min(last.min, sample);
      else buckets.push({ start, min: sample });
      prune(at);
      samples += 1;
    },
    /**
     * Start from an offset measured before a restart (kept in storage): right after one, the
     * venue may be paused and send nothing to measure.
     * @param {unknown} offset
     */
    seed(offset) {
      if (typeof offset !== 'number' || !Number.isFinite(offset) || buckets.length) return;
      const at = now();
      buckets.push({ start: at - (at % BUCKET_MS), min: offset });
    },
    /** Edge time − venue time (ms, rounded): 0 until a frame was seen. */
    offset() {
      prune(now());
      return buckets.length === 0 ? 0 : Math.round(minimum());
    },
    /** The venue's clock, now (ms). */
    now: () => now() - clock.offset(),
    /** For /healthz?deep=1. */
    stats: () => ({ offsetMs: clock.offset(), samples, steps }),
  };
  return clock;
}
