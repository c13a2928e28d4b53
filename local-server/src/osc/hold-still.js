// Background processes held still around each timed send (docs/reference/osc.md#beats-while-the-score-engraves).
// The engraving process (local-server/src/notation/engrave-host.js) runs at the idle CPU class,
// yet on a two-core laptop beats still reached a receiver 1.4 ms later at p99 while it worked:
// every thread that wakes at a beat (the send thread, the viewers' fan-out, a receiver on the same
// machine) must first take a core back from it. So the send thread stops it (SIGSTOP) a few ms
// before a packet is due and lets it go on (SIGCONT) shortly after the packet is out: a few ms of
// every beat taken from the engraving, none from the beat. Signals a system lacks (Windows) are
// skipped: there it is not held.

/** How long before a timed send the background processes are stopped (ms): the send thread's own wake-up plus its spin. */
export const HOLD_LEAD_MS = 5;
/**
 * How long after the send they stay stopped (ms): the beat's moment on this laptop is more than
 * the packet leaving. The viewers' fan-out of that beat and any receiver on the same machine wake
 * then too; let go at the send, the engraving took the CPU back from them, and beats reached a
 * receiver on the laptop 1.4 ms later at p99 (2 ms: 0.2 ms; docs/results.md#the-notation-goals).
 */
export const HOLD_AFTER_MS = 2;

/**
 * @typedef {object} HoldStill
 * @property {(pids: number[]) => void} setPids the processes to hold from now on; any held now go on at once
 * @property {() => boolean} active whether there is anything to hold
 * @property {() => () => void} hold stop them until the returned release is called (holds nest: they go on at the last release)
 * @property {() => void} releaseAll let them go on whatever is held (closing)
 */

/**
 * @param {(pid: number, signal: 'SIGSTOP' | 'SIGCONT') => void} [signal] tests may watch the signals
 * @returns {HoldStill}
 */
export function createHoldStill(signal = (pid, name) => process.kill(pid, name)) {
  /** @type {number[]} */
  let pids = [];
  /** @type {Set<object>} the holds not released yet */
  let holders = new Set();
  const tell = (/** @type {'SIGSTOP' | 'SIGCONT'} */ name) => {
    for (const pid of pids) {
      try {
        signal(pid, name);
      } catch {
        // gone meanwhile (its end is on its way to us), or a system without these signals
      }
    }
  };
  const releaseAll = () => {
    if (holders.size > 0) tell('SIGCONT');
    holders = new Set(); // releases still to come belong to the old set: they do nothing
  };
  return {
    setPids(next) {
      releaseAll();
      pids = next.filter((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid);
    },
    active: () => pids.length > 0,
    hold() {
      const token = {};
      const set = holders;
      set.add(token);
      if (set.size === 1) tell('SIGSTOP');
      return () => {
        if (set.delete(token) && set.size === 0 && set === holders) tell('SIGCONT');
      };
    },
    releaseAll,
  };
}
