// Child-process orchestration for benchmarks: fork workers, talk to them with request/reply
// messages over IPC, and make sure every one of them dies with the runner — on normal exit,
// on errors, on Ctrl-C and on SIGTERM. (Children also exit on their own when the IPC channel
// closes, so even a SIGKILLed runner leaves nothing behind; see child-ipc.js.)

import { fork } from 'node:child_process';

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
let handlersInstalled = false;

/** Kill every child still running (synchronous: safe inside an 'exit' handler). */
export function killAllChildren(signal = 'SIGKILL') {
  for (const child of live) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => killAllChildren());
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping ${live.size} child process(es)\n`);
      killAllChildren();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/**
 * @typedef {object} Worker
 * @property {number} pid
 * @property {string} name
 * @property {import('node:child_process').ChildProcess} child
 * @property {(cmd: string, payload?: any, timeoutMs?: number) => Promise<any>} request send a command, resolve with the child's reply
 * @property {(type: string, timeoutMs: number) => Promise<any>} waitFor resolve with the data of the next message of this type
 * @property {(graceMs?: number) => Promise<void>} stop ask it to exit, then SIGKILL after the grace period
 * @property {() => boolean} running
 */

/**
 * Fork a worker module. Its stdout/stderr go to ours (workers print only problems).
 * @param {string} modulePath
 * @param {{ name?: string, args?: string[], env?: Record<string, string>, execArgv?: string[] }} [options]
 * @returns {Worker}
 */
export function forkWorker(modulePath, { name = modulePath, args = [], env, execArgv = [] } = {}) {
  installExitHandlers();
  const child = fork(modulePath, args, {
    execArgv, // never the runner's own flags (--inspect, vm-modules): a worker is a plain process
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: env ? { ...process.env, ...env } : process.env,
  });
  live.add(child);
  let exited = false;
  let exitInfo = '';
  /** @type {Map<number, { resolve: Function, reject: Function, timer: NodeJS.Timeout, cmd: string }>} */
  const pending = new Map();
  /** @type {Set<{ type: string, resolve: Function, reject: Function, timer: NodeJS.Timeout }>} */
  const waiters = new Set();
  let nextId = 1;

  child.on('message', (/** @type {any} */ msg) => {
    if (!msg || typeof msg !== 'object') return;
    if (msg.reply !== undefined) {
      const p = pending.get(msg.reply);
      if (!p) return;
      pending.delete(msg.reply);
      clearTimeout(p.timer);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(`${name}: "${p.cmd}" failed: ${msg.error}`));
      return;
    }
    for (const w of waiters) {
      if (w.type === msg.type) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(msg.data);
      }
    }
  });
  child.once('exit', (code, signal) => {
    exited = true;
    exitInfo = signal ? `signal ${signal}` : `code ${code}`;
    live.delete(child);
    const error = (what) => new Error(`${name} (pid ${child.pid}) exited (${exitInfo}) while waiting for ${what}`);
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(error(`"${p.cmd}"`));
    }
    pending.clear();
    for (const w of waiters) {
      clearTimeout(w.timer);
      w.reject(error(`"${w.type}"`));
    }
    waiters.clear();
  });
  child.on('error', () => {}); // reported through 'exit' or a failed send

  return {
    pid: /** @type {number} */ (child.pid),
    name,
    child,
    running: () => !exited,
    request(cmd, payload, timeoutMs = 30_000) {
      if (exited) return Promise.reject(new Error(`${name} already exited (${exitInfo}); cannot send "${cmd}"`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${name}: no reply to "${cmd}" within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer, cmd });
        child.send({ id, cmd, payload }, (err) => {
          if (err && pending.delete(id)) {
            clearTimeout(timer);
            reject(new Error(`${name}: cannot send "${cmd}": ${err.message}`));
          }
        });
      });
    },
    waitFor(type, timeoutMs) {
      if (exited) return Promise.reject(new Error(`${name} already exited (${exitInfo}); it will not send "${type}"`));
      return new Promise((resolve, reject) => {
        const w = {
          type,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(w);
            reject(new Error(`${name}: no "${type}" message within ${timeoutMs} ms`));
          }, timeoutMs),
        };
        waiters.add(w);
      });
    },
    async stop(graceMs = 3000) {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      try {
        child.kill('SIGTERM');
      } catch {
        // already exiting
      }
      const timer = setTimeout(() => {
        try {
          child.kill('SIGKILL');
        } catch {
          // gone meanwhile
        }
      }, graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** Number of worker processes still alive (for leak checks). */
export const liveChildren = () => live.size;
