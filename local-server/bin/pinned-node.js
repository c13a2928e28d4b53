// `tutti` started by a Node older than 22 (the system's Node 20 running a linked or npx-installed
// bin from a composer's own folder) runs itself again on the Node pinned in the checkout's
// node_modules (the `node` npm package), found from this file's real path, not the working folder:
// docs/how-to/tutti-on-your-path.md. Kept to what Node 18+ can load, since the old Node runs it.

import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Set in the child, so a pinned runtime that is itself too old says so instead of looping. */
const REEXEC_FLAG = 'TUTTI_PINNED_NODE';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

/**
 * The pinned Node of the checkout this bin belongs to, or null when there is none.
 * @param {string} binFile this bin's path (a symlink is followed: npm link, npm install -g)
 * @returns {string | null}
 */
export function pinnedNodeFor(binFile) {
  const root = join(dirname(realpathSync(binFile)), '..', '..');
  // The `node` package's own binary (its .bin shim is a symlink to it; on Windows a .cmd that
  // would need a shell). Windows is untested.
  const node = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return existsSync(node) ? node : null;
}

/**
 * Run `binFile` with `args` on the pinned Node and end this process as the child ends: its exit
 * code, or the signal that ended it. Signals sent to this process (Ctrl-C, a service manager's
 * SIGTERM) go to the child; stdin, stdout and stderr are the child's own.
 * @param {string} binFile
 * @param {string[]} args
 * @returns {boolean} false (nothing started) when there is no pinned Node or it was tried already
 */
export function runOnPinnedNode(binFile, args) {
  const node = pinnedNodeFor(binFile);
  if (!node || process.env[REEXEC_FLAG]) return false;
  const child = spawn(node, [realpathSync(binFile), ...args], { stdio: 'inherit', env: { ...process.env, [REEXEC_FLAG]: '1' } });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.once('error', (err) => {
    process.stderr.write(`tutti: could not start the pinned Node (${node}): ${err.message}\n`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    // Ended by a signal: end the same way, so a shell or a service manager sees what happened.
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}
