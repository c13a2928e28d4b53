// The beat flash and the composer's colour changes within WCAG 2.3.1 (three flashes): never more
// than three flashes in any second, and no flash at all when the phone asks for reduced motion
// (docs/reference/accessibility-and-languages.md#accessibility). Used by the audience page's beat pulse and stage
// colours and the part page's beat flash.

/** Shortest gap between two flashes: 350 ms is at most 2.9 a second, with room for timer jitter. */
export const MIN_FLASH_GAP_MS = 350;
/** Up to this tempo every beat flashes (a beat lasts ≥ 350 ms); faster, only downbeats do. */
export const EVERY_BEAT_MAX_BPM = 60_000 / MIN_FLASH_GAP_MS;
/** A colour change is half a flash (there and back): at most one per 175 ms keeps it under three flashes a second. */
export const MIN_COLOUR_GAP_MS = MIN_FLASH_GAP_MS / 2;

/** The query, made once: its `matches` is live (the setting can change while the page is open), and reading it costs nothing per beat. */
const motionQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;
/** Whether the phone asks for reduced motion now. */
export const reducedMotion = () => motionQuery?.matches === true;

/**
 * Lets through at most one moment per `gapMs`, on the moments' own times (a beat's `at`): never
 * two closer than that, whatever the tempo. A time earlier than the last (a seek back) starts afresh.
 * @param {number} gapMs
 */
export function createGapGate(gapMs) {
  let lastAt = -Infinity;
  return {
    /** @param {number} at @returns {boolean} whether this moment may pass */
    pass(at) {
      if (at < lastAt) lastAt = -Infinity;
      if (at - lastAt < gapMs) return false;
      lastAt = at;
      return true;
    },
  };
}

/**
 * Decides which beats flash: every beat up to EVERY_BEAT_MAX_BPM, downbeats only above it, and
 * never two flashes closer than MIN_FLASH_GAP_MS on the beats' own times (so even one-beat bars at
 * 400 bpm stay under three a second); none with reduced motion.
 */
export function createBeatFlashLimit() {
  const gate = createGapGate(MIN_FLASH_GAP_MS);
  return {
    /**
     * @param {{ beat: number, at: number, bpm?: number }} b the beat going on screen (`at`: its time, ms)
     * @returns {boolean} whether to flash it
     */
    flash(b) {
      if (reducedMotion()) return false;
      const fast = typeof b.bpm === 'number' && b.bpm > EVERY_BEAT_MAX_BPM;
      if (fast && b.beat !== 1) return false;
      return gate.pass(b.at);
    },
  };
}

/**
 * Applies changes (e.g. a background colour) at most once per `gapMs`: a change that comes sooner
 * waits until the gap is over, and a newer one replaces it (the latest wins, nothing is lost but
 * the in-between flicker).
 * @template T
 * @param {(value: T) => void} apply
 * @param {number} [gapMs]
 */
export function createChangeLimit(apply, gapMs = MIN_COLOUR_GAP_MS) {
  let last = -Infinity;
  let timer = 0;
  /** @type {{ value: T } | null} */
  let pending = null;
  const run = () => {
    timer = 0;
    last = performance.now();
    const p = /** @type {{ value: T }} */ (pending);
    pending = null;
    apply(p.value);
  };
  return {
    /** @param {T} value */
    set(value) {
      pending = { value };
      const wait = last + gapMs - performance.now();
      if (wait <= 0) {
        clearTimeout(timer);
        run();
      } else if (!timer) timer = setTimeout(run, wait);
    },
  };
}
