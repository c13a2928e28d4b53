// The show server in an Electron utility process (child_process.fork would break once the
// run-as-node fuse is off). If it dies, it is started again after a growing delay (backoff),
// and every change of state is reported so the console can say what happened. A process that
// ran long enough before dying starts the backoff from the beginning again.

export const RESTART_DELAYS_MS = Object.freeze([500, 1000, 2000, 4000, 8000, 15000]);
export const STABLE_AFTER_MS = 30_000;
const STOP_GRACE_MS = 3000;

/**
 * @typedef {{ state: 'starting' | 'running' | 'restarting' | 'failed' | 'stopped', attempt?: number, retryInMs?: number, reason?: string, restarted?: boolean, info?: any }} ServerStatus
 *
 * @typedef {object} ServerProcessOptions
 * @property {(modulePath: string, args: string[], options: object) => any} fork utilityProcess.fork
 * @property {string} entry path of app/main/server-child.js
 * @property {() => object} startMessage what to send the child (settings, overrides incl. pinned ports and token)
 * @property {(status: ServerStatus) => void} onStatus
 * @property {(change: Record<string, unknown>) => void} [onSettings]
 * @property {(level: string, msg: string) => void} [onLog]
 * @property {(transport: string) => void} [onTransport] the show's transport changed ('playing' | 'paused' | 'stopped')
 * @property {readonly number[]} [delays]
 * @property {number} [stableMs]
 * @property {(fn: () => void, ms: number) => any} [setTimer]
 * @property {(handle: any) => void} [clearTimer]
 * @property {() => number} [now]
 */

/** @param {ServerProcessOptions} options */
export function createServerProcess(options) {
  const {
    fork,
    entry,
    startMessage,
    onStatus,
    onSettings = () => {},
    onLog = () => {},
    onTransport = () => {},
    delays = RESTART_DELAYS_MS,
    stableMs = STABLE_AFTER_MS,
    setTimer = setTimeout,
    clearTimer = clearTimeout,
    now = Date.now,
  } = options;
  let child = null;
  let timer = null;
  let stopping = false;
  let attempt = 0;
  let spawnedAt = 0;
  let lastFailure = null;
  let info = null;
  let starts = 0;
  /** @type {Array<() => void>} */
  let exitWaiters = [];

  function spawn() {
    timer = null;
    if (stopping) return;
    lastFailure = null;
    spawnedAt = now();
    starts += 1;
    onStatus({ state: 'starting', attempt });
    const current = fork(entry, [], { serviceName: 'Tutti show server', stdio: 'inherit' });
    child = current;
    current.on('message', (msg) => onMessage(current, msg));
    current.on('exit', (code) => onExit(current, code));
    current.postMessage(startMessage());
  }

  function onMessage(from, msg) {
    if (from !== child || !msg || typeof msg !== 'object') return;
    if (msg.type === 'ready') {
      info = msg;
      onStatus({ state: 'running', restarted: starts > 1, info: msg });
    } else if (msg.type === 'failed') {
      lastFailure = msg.message;
    } else if (msg.type === 'settings') {
      onSettings(msg.change);
    } else if (msg.type === 'log') {
      onLog(msg.level, msg.msg);
    } else if (msg.type === 'transport' && typeof msg.state === 'string') {
      onTransport(msg.state);
    }
  }

  function onExit(from, code) {
    if (from !== child) return;
    child = null;
    if (stopping) {
      const waiters = exitWaiters;
      exitWaiters = [];
      waiters.forEach((w) => w());
      onStatus({ state: 'stopped' });
      return;
    }
    if (now() - spawnedAt >= stableMs) attempt = 0;
    const delay = delays[Math.min(attempt, delays.length - 1)];
    attempt += 1;
    const reason = lastFailure ?? `it exited with code ${code}`;
    onStatus({ state: 'restarting', attempt, retryInMs: delay, reason });
    timer = setTimer(spawn, delay);
  }

  return {
    start() {
      stopping = false;
      if (!child && !timer) spawn();
    },
    /** Stop for good (app quitting): ask nicely, then kill. Resolves when the child is gone. */
    stop() {
      stopping = true;
      if (timer) clearTimer(timer);
      timer = null;
      if (!child) return Promise.resolve();
      const current = child;
      return new Promise((resolve) => {
        const force = setTimer(() => {
          current.kill();
          resolve();
        }, STOP_GRACE_MS);
        exitWaiters.push(() => {
          clearTimer(force);
          resolve();
        });
        current.postMessage({ type: 'stop' });
      });
    },
    /**
     * Show a warning in the console's log (the server's log, which the console page reads).
     * @param {string} msg
     */
    notice: (msg) => child?.postMessage({ type: 'notice', msg }),
    /** The last 'ready' message (URLs, ports), or null before the first start. */
    info: () => info,
    running: () => child !== null,
  };
}
