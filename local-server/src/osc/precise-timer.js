// Run a function at an exact time of a clock, to a fraction of a millisecond: a plain setTimeout
// fires 0–2 ms late (whole-ms timers) plus whatever the event loop is busy with. This one wakes a
// little early, looks again on each event-loop turn for the last few ms (other work still runs),
// and spins only the last ≤ SPIN_MS on the clock: ≤ 1.5 ms of CPU per distinct time — once per
// beat and target offset, not per message.

/** The last stretch waited by spinning rather than by a timer (ms). */
export const SPIN_MS = 1.5;
/** How late a timer may fire (ms): the stretch before the spin is polled each event-loop turn. */
const TIMER_SLACK_MS = 2;

/**
 * @param {() => number} now the clock `at` times are on (ms, fractional)
 * @returns {{ at: (time: number, fn: () => void) => () => void, clear: () => void }}
 *   `at` schedules and returns a cancel function; `clear` cancels everything pending
 */
export function createPreciseTimer(now) {
  /** @type {Set<{ timer: NodeJS.Timeout | null, immediate: NodeJS.Immediate | null }>} */
  const pending = new Set();
  const stop = (entry) => {
    if (entry.timer) clearTimeout(entry.timer);
    if (entry.immediate) clearImmediate(entry.immediate);
  };

  function at(time, fn) {
    const entry = { timer: /** @type {NodeJS.Timeout | null} */ (null), immediate: /** @type {NodeJS.Immediate | null} */ (null) };
    const fire = () => {
      pending.delete(entry);
      entry.timer = null;
      fn();
    };
    const arm = () => {
      entry.timer = null;
      entry.immediate = null;
      const wait = time - now();
      if (wait <= SPIN_MS) {
        while (now() < time) {
          /* the last fraction of a ms */
        }
        fire();
        return;
      }
      // Timers count whole ms of loop time and may fire up to ~1 ms late: aim 2 ms before the spin
      // starts; inside that last stretch, look again on every turn of the event loop instead.
      if (wait <= SPIN_MS + TIMER_SLACK_MS) {
        entry.timer = null;
        entry.immediate = setImmediate(arm);
        return;
      }
      entry.timer = setTimeout(arm, wait - SPIN_MS - TIMER_SLACK_MS);
    };
    pending.add(entry);
    arm();
    return () => {
      stop(entry);
      pending.delete(entry);
    };
  }

  return {
    at,
    clear() {
      for (const entry of pending) stop(entry);
      pending.clear();
    },
  };
}
