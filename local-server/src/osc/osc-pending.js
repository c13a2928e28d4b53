// Timed OSC sends that have not gone out yet (osc.js), kept so they can be dropped together: a
// pause or stop drops the beats and cues not yet due, a cancelled count-in its clicks. Each is
// forgotten a second after its moment (the latest target offset has passed by then).

const FORGET_AFTER_MS = 1000;

/**
 * @param {() => number} now the server clock the moments are on
 */
export function createPendingSends(now) {
  /** @type {Set<() => void>} */
  const cancels = new Set();
  return {
    /**
     * Keep a send's cancel until its moment has passed.
     * @param {number} at when it sounds (server clock)
     * @param {() => void} cancel
     */
    hold(at, cancel) {
      cancels.add(cancel);
      setTimeout(() => cancels.delete(cancel), Math.max(0, at - now()) + FORGET_AFTER_MS).unref();
    },
    /** Cancel every send still held. */
    cancelAll() {
      for (const cancel of cancels) cancel();
      cancels.clear();
    },
  };
}
