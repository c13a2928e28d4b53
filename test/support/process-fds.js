// Open files per process, read from /proc (Linux): how many a process holds now, its soft
// open-files limit, and every process below a parent (a launcher's workerd children).

import { readFileSync, readdirSync } from 'node:fs';

/**
 * @param {number} pid
 * @returns {number[]} pid and all its descendants (children first found via /proc/<pid>/task/<tid>/children)
 */
export function processTree(pid) {
  const found = [pid];
  for (let i = 0; i < found.length; i += 1) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${found[i]}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      try {
        const kids = readFileSync(`/proc/${found[i]}/task/${tid}/children`, 'utf8').trim();
        if (kids) found.push(...kids.split(/\s+/).map(Number));
      } catch {
        // thread exited meanwhile
      }
    }
  }
  return [...new Set(found)];
}

/**
 * @param {number} pid
 * @returns {{ pid: number, name: string, fds: number, limit: number } | null} null when the process is gone
 */
export function openFiles(pid) {
  try {
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return { pid, name, fds, limit: soft === 'unlimited' || soft === undefined ? Infinity : Number(soft) };
  } catch {
    return null;
  }
}
