// How a workerd started by this Node process ended (exit code or signal), for `npm run edge:dev`'s
// crash supervision (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed). Miniflare spawns workerd itself
// and keeps the child to itself, so the child is picked up where Node announces every child
// process it creates: the `child_process` diagnostics channel (public Node API), which publishes
// before the spawn, so this 'exit' listener runs before Miniflare's own.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { basename } from 'node:path';

const WORKERD = /^workerd(\.exe)?$/;

/**
 * @typedef {object} WorkerdExit
 * @property {number} pid
 * @property {number | null} code exit code, null when a signal ended it
 * @property {string | null} signal e.g. 'SIGKILL'
 * @property {boolean} killedHere this process asked for it (ChildProcess.kill(): Miniflare stopping
 *   workerd for a reload or dispose), as opposed to something outside (kill, OOM killer) or workerd itself
 */

/**
 * Call `onExit` whenever a workerd child of this process exits, from now on.
 * @param {(exit: WorkerdExit) => void} onExit
 * @returns {() => void} stops watching
 */
export function watchWorkerdExits(onExit) {
  /** @param {any} message */
  const onChild = (message) => {
    /** @type {import('node:child_process').ChildProcess} */
    const child = message.process;
    child.once('exit', (code, signal) => {
      // spawnfile is only set once spawned: read it here, not in onChild.
      if (!WORKERD.test(basename(child.spawnfile ?? ''))) return;
      onExit({ pid: child.pid ?? -1, code, signal, killedHere: child.killed });
    });
  };
  subscribe('child_process', onChild);
  return () => unsubscribe('child_process', onChild);
}

/**
 * "exited (signal SIGKILL)" / "exited (code 134)": how a terminal line names the end of workerd.
 * @param {Pick<WorkerdExit, 'code' | 'signal'>} exit
 */
export function describeExit({ code, signal }) {
  return signal ? `exited (signal ${signal})` : `exited (code ${code})`;
}
