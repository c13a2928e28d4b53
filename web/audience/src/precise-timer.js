// Wakes up at a given page-clock time, as exactly as a busy phone allows. setTimeout wakes late
// by an amount that depends on the device and how busy it is (a fraction of a millisecond when
// idle, several when the CPU is shared), so this timer learns that lateness from its own recent
// wake-ups, asks to be woken that much earlier, and waits out the rest in place. The waiting is
// bounded (MAX_EARLY_MS per wake-up), so a phone never spins for long.

const MIN_EARLY_MS = 1;
const MAX_EARLY_MS = 6;
const HISTORY = 20;

/** @param {() => number} now page clock */
export function createPreciseTimer(now) {
  /** @type {number[]} */
  const lateness = [];
  let early = 2;
  let handle = null;

  function learn(late) {
    lateness.push(late);
    if (lateness.length > HISTORY) lateness.shift();
    const sorted = [...lateness].sort((a, b) => a - b);
    const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)];
    early = Math.min(MAX_EARLY_MS, Math.max(MIN_EARLY_MS, p90 + 0.5));
  }

  return {
    /**
     * Call `fn` at page-clock time `target` (replaces any pending call).
     * @param {number} target
     * @param {() => void} fn
     */
    at(target, fn) {
      clearTimeout(handle);
      const wakeAt = target - early;
      handle = setTimeout(
        () => {
          handle = null;
          learn(Math.max(0, now() - wakeAt));
          // Bounded by MAX_EARLY_MS: the wake was asked for at most that long before the target.
          while (now() < target && target - now() <= MAX_EARLY_MS);
          fn();
        },
        Math.max(0, wakeAt - now()),
      );
    },
    cancel() {
      clearTimeout(handle);
      handle = null;
    },
    /** How early it currently wakes (ms): the device's recent timer lateness. */
    early: () => early,
  };
}
