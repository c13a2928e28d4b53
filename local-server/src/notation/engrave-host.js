// Where Verovio runs (docs/reference/notation.md#the-cache): a child process whose every thread
// is niced (engrave-thread.js), so V8's helper threads compiling Verovio's WebAssembly and
// collecting its garbage wait behind the show, as the engraving itself does. The desktop app's
// show server runs in an Electron utility process, which cannot fork (the runAsNode fuse is
// off, electron-builder.yml): there it is a worker thread, niced alone, as before.

import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const ENTRY = new URL('./engrave-thread.js', import.meta.url);

/**
 * @typedef {object} EngraveHost
 * @property {'process' | 'thread'} kind
 * @property {number | null} pid the child's process id (a thread has none of its own)
 * @property {(message: any) => void} send
 * @property {(listener: (message: any) => void) => void} onMessage
 * @property {(listener: (why: string) => void) => void} onDeath once, with a sentence: it exited, crashed or ran out of memory
 * @property {() => void} forgetDeath stop reporting its end (it is being stopped on purpose)
 * @property {() => Promise<void>} stop end it and wait until it is gone
 */

/** A child process can be forked here (not in Electron, where runAsNode is off). */
export const CAN_FORK = !process.versions.electron;

const OUT_OF_MEMORY = 'it needs more memory than Tutti gives an engraving';

/**
 * Start a host for the engraving.
 * @param {{ heapMb: number, kind?: 'process' | 'thread' }} options `kind`: a process where one can be forked
 * @returns {EngraveHost}
 */
export function startEngraveHost({ heapMb, kind = CAN_FORK ? 'process' : 'thread' }) {
  return kind === 'process' ? processHost(heapMb) : threadHost(heapMb);
}

/**
 * Linux's `chrt` (util-linux), to start the process under SCHED_IDLE: a nice value only lowers a
 * thread's share, and the kernel's scheduler (EEVDF) still lets a running niced thread finish its
 * slice (a few ms) before the show's woken thread runs; an idle-class thread gives way at once.
 */
const CHRT = ['/usr/bin/chrt', '/bin/chrt'].find((p) => process.platform === 'linux' && existsSync(p));

/** @param {number} heapMb @returns {EngraveHost} */
function processHost(heapMb) {
  const heap = `--max-old-space-size=${heapMb}`;
  const child = fork(fileURLToPath(ENTRY), [], {
    ...(CHRT ? { execPath: CHRT, execArgv: ['--idle', '0', process.execPath, heap] } : { execArgv: [heap] }),
    serialization: 'advanced', // the file's bytes go over as bytes
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let death = (/** @type {string} */ _why) => {};
  child.on('error', (error) => death(`the engraver failed: ${error.message}`));
  // V8 aborts a process out of heap (SIGABRT, or exit code 134 where signals are codes).
  child.on('exit', (code, signal) => death(signal === 'SIGABRT' || code === 134 ? OUT_OF_MEMORY : 'the engraver stopped'));
  return {
    kind: 'process',
    pid: child.pid ?? null,
    send: (message) => child.send(message),
    onMessage: (listener) => child.on('message', listener),
    onDeath: (listener) => (death = once(listener)),
    forgetDeath: () => (death = () => {}),
    stop: () =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill();
          }),
  };
}

/** @param {number} heapMb @returns {EngraveHost} */
function threadHost(heapMb) {
  const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  let death = (/** @type {string} */ _why) => {};
  worker.on('error', (error) =>
    death(
      /heap|memory/i.test(`${error.message} ${/** @type {any} */ (error).code}`) ? OUT_OF_MEMORY : `the engraver failed: ${error.message}`,
    ),
  );
  worker.on('exit', () => death('the engraver stopped'));
  return {
    kind: 'thread',
    pid: null,
    send: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onDeath: (listener) => (death = once(listener)),
    forgetDeath: () => (death = () => {}),
    stop: () =>
      worker.terminate().then(
        () => {},
        () => {},
      ),
  };
}

/** A listener that hears only the first call (an error is followed by an exit). */
function once(/** @type {(why: string) => void} */ listener) {
  let heard = false;
  return (/** @type {string} */ why) => {
    if (heard) return;
    heard = true;
    listener(why);
  };
}
