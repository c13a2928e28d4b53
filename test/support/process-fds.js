// Open files per process, read from /proc (Linux): how many a process holds now and its soft
// open-files limit. processTree (bench/lib/process-tree.js) finds a launcher's children.

import { readFileSync, readdirSync } from 'node:fs';
import { processName } from '../../bench/lib/process-tree.js';

export { processTree } from '../../bench/lib/process-tree.js';

/**
 * @param {number} pid
 * @returns {{ pid: number, name: string, fds: number, limit: number } | null} null when the process is gone
 */
export function openFiles(pid) {
  try {
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
    return { pid, name: processName(pid) ?? '?', fds, limit: soft === 'unlimited' || soft === undefined ? Infinity : Number(soft) };
  } catch {
    return null;
  }
}
