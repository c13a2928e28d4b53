// Every process below a parent, read from /proc (Linux): a launcher's workerd, whose CPU and open
// files a benchmark or a test measures from outside.

import { readFileSync, readdirSync } from 'node:fs';

/**
 * @param {number} pid
 * @returns {number[]} pid and all its descendants (via /proc/<pid>/task/<tid>/children)
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
 * The command name of a process (/proc/<pid>/comm), or null when it is gone.
 * @param {number} pid
 */
export function processName(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}
