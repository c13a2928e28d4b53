// Memory and CPU of other processes, read from /proc (Linux): what a child really uses,
// measured from outside so the measurement does not disturb it.

import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

/**
 * Resident set size of a process in bytes (VmRSS), or null when it is gone.
 * @param {number} pid
 */
export function readRssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used, in seconds, or null when it is gone.
 * @param {number} pid
 */
export function readCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: split after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Samples the RSS of some processes at a fixed period and keeps the peak since the last reset.
 * @param {() => number[]} pids the processes to watch (read at every sample)
 * @param {{ intervalMs?: number, onSample?: (total: number) => void }} [options]
 */
export function createRssSampler(pids, { intervalMs = 200, onSample } = {}) {
  let peak = 0;
  let last = 0;
  const sample = () => {
    let total = 0;
    for (const pid of pids()) total += readRssBytes(pid) ?? 0;
    last = total;
    if (total > peak) peak = total;
    onSample?.(total);
    return total;
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    sample,
    /** Highest total RSS seen since the last reset, in bytes. */
    peak: () => peak,
    last: () => last,
    reset() {
      peak = 0;
      sample();
    },
    stop: () => clearInterval(timer),
  };
}
