// The root's estimate of the venue's clock (venue-clock.js), fed by live deltas and kept in
// storage so a restarted root (and the shards it pushes to) keeps the venue's time.

import { createVenueClock } from './venue-clock.js';

/** The offset is stored again when it moved this much (ms). */
const SAVE_STEP_MS = 5;
const KEY = 'venueClockOffset';

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage
 * @param {() => boolean} options.caughtUp false while a publisher sends its catch-up (publisher-link.js)
 */
export function createStoredVenueClock({ storage, caughtUp }) {
  const clock = createVenueClock();
  let saved = 0;
  return {
    async load() {
      clock.seed(await storage.get(KEY));
      saved = clock.offset();
    },
    /**
     * A live delta made at venue time `t` arrived; a publisher's catch-up right after it
     * connected is old news, and a snapshot may have been made long before it was sent.
     * @param {number} t
     */
    observe(t) {
      if (!caughtUp()) return;
      clock.observe(t);
      const offset = clock.offset();
      if (Math.abs(offset - saved) < SAVE_STEP_MS) return;
      saved = offset;
      void storage.put(KEY, offset);
    },
    /** Edge time − venue time (ms). */
    offset: () => clock.offset(),
    /** The venue's clock, now (ms). */
    now: () => clock.now(),
    stats: () => clock.stats(),
  };
}
