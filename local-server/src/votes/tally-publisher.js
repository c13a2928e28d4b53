// The tally travels in the state at most every TALLY_INTERVAL_MS (docs/reference/audience-protocol.md#audience-voices):
// a vote marks it changed, and the show republishes when the interval since the last time has
// passed. Every published state carries the current tally (each beat's too), so once any state
// went out the tally is no longer waiting.

/** The tally travels in the state at most this often (docs/README.md: "a few times a second"). */
export const TALLY_INTERVAL_MS = 250;

/**
 * @param {object} options
 * @param {() => number} options.now
 * @param {() => void} options.republish publish the state now (the tally is in it)
 * @param {() => void} options.onPublished the tally went out (gauges follow it)
 */
export function createTallyPublisher({ now, republish, onPublished }) {
  let dirty = false;
  let lastFlush = 0;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;

  function flush() {
    timer = null;
    if (!dirty) return;
    dirty = false;
    lastFlush = now();
    onPublished();
    republish();
  }

  return {
    /** The tally changed: publish it now, or when TALLY_INTERVAL_MS has passed since the last time. */
    changed() {
      dirty = true;
      if (timer) return;
      const wait = lastFlush + TALLY_INTERVAL_MS - now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    /** Publish now, whatever the interval (a result). */
    now() {
      dirty = true;
      if (timer) clearTimeout(timer);
      flush();
    },
    /** Some state went out, carrying the tally. */
    sent() {
      if (!dirty) return;
      dirty = false;
      onPublished();
    },
    /** Nothing is waiting any more (the round was dropped). */
    forget() {
      dirty = false;
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
