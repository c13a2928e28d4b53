// Whole-machine CPU use from /proc/stat, so a benchmark can tell how much of the CPU other
// people's processes took while it measured (this machine is shared), and wait for a quiet
// moment before starting a run.

import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** CPU-seconds the whole machine has spent busy (all cores), or null off Linux. */
export function readSystemBusySeconds() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Wait until the machine is quiet: busy CPU below `thresholdPct` (percent of one core) over a
 * one-second sample, for at most `maxMs`. Call it while none of our own processes run.
 * @param {{ maxMs: number, thresholdPct: number, log?: (msg: string) => void }} options
 * @returns {Promise<{ quiet: boolean, waitedMs: number, busyPct: number | null }>}
 */
export async function waitForQuiet({ maxMs, thresholdPct, log }) {
  const started = Date.now();
  let lastLog = started;
  let busyPct = null;
  while (true) {
    const a = readSystemBusySeconds();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = readSystemBusySeconds();
    if (a === null || b === null) return { quiet: true, waitedMs: 0, busyPct: null };
    busyPct = (b - a) * 100;
    const waited = Date.now() - started;
    if (busyPct < thresholdPct) return { quiet: true, waitedMs: waited, busyPct };
    if (waited >= maxMs) return { quiet: false, waitedMs: waited, busyPct };
    if (Date.now() - lastLog >= 15_000) {
      lastLog = Date.now();
      log?.(
        `machine busy (${busyPct.toFixed(0)}% of a core used by other processes); waiting up to ${Math.round((maxMs - waited) / 1000)} s more`,
      );
    }
  }
}
