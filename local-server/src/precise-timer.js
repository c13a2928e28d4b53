// Run a function at an exact time of a clock, to a fraction of a millisecond: a plain setTimeout
// fires 0–2 ms late (whole-ms timers) plus whatever the event loop is busy with. This one wakes a
// little early and spins the last ≤ SPIN_MS on the clock, which costs ≤ 1.5 ms of CPU per
// distinct time — once per beat and target offset, not per message.

/** The last stretch waited by spinning rather than by a timer (ms). */
export const SPIN_MS = 1.5;

/**
 * @param {() => number} now the clock `at` times are on (ms, fractional)
 * @returns {{ at: (time: number, fn: () => void) => () => void, clear: () => void }}
 *   `at` schedules and returns a cancel function; `clear` cancels everything pending
 */
export function createPreciseTimer(now) {
  /** @type {Set<{ timer: NodeJS.Timeout | null }>} */
  const pending = new Set();

  function at(time, fn) {
    const entry = { timer: /** @type {NodeJS.Timeout | null} */ (null) };
    const fire = () => {
      pending.delete(entry);
      entry.timer = null;
      fn();
    };
    const arm = () => {
      entry.timer = null;
      const wait = time - now();
      if (wait <= SPIN_MS) {
        while (now() < time) { /* the last fraction of a ms */ }
        fire();
        return;
      }
      // A timer may fire up to ~1 ms late: aim 1 ms before the spin starts, re-arm if early.
      entry.timer = setTimeout(arm, Math.max(1, wait - SPIN_MS - 1));
    };
    pending.add(entry);
    arm();
    return () => {
      if (entry.timer) clearTimeout(entry.timer);
      pending.delete(entry);
    };
  }

  return {
    at,
    clear() {
      for (const entry of pending) if (entry.timer) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}
