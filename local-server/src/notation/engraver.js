// The show's side of the engraver (docs/reference/notation.md#the-cache): one host
// (engrave-host.js: a child process, or a worker thread in the desktop app) running Verovio at
// the lowest CPU priority, fed one job at a time from a
// queue; a request a tablet waits for goes to the front. A job that takes too long or a process
// that dies (out of memory on a hostile file) is answered with a sentence and the process is
// started afresh for the next job. An idle one is ended, giving back Verovio's memory.

import { ImportError } from '#core/import/import-error.js';
import { startEngraveHost } from './engrave-host.js';

/** One engraving may take this long (a whole orchestral score in one layout takes seconds). */
export const ENGRAVE_TIME_LIMIT_MS = 120_000;
const HEAP_LIMIT_MB = 1024;
const IDLE_MS = 30_000;

/**
 * @typedef {{ type: 'inspect' | 'engrave', hash: string, bytes: Uint8Array, name: string, xmlId?: string, layout?: string, dir?: string, key?: string }} EngraveJob
 */

/**
 * @param {{ timeLimitMs?: number, idleMs?: number, onJob?: (job: EngraveJob) => void, host?: 'process' | 'thread' }} [options]
 *   `onJob`: each job as it starts (tests count engravings); `host`: where Verovio runs (default: a process where one can be forked)
 */
export function createEngraver({ timeLimitMs = ENGRAVE_TIME_LIMIT_MS, idleMs = IDLE_MS, onJob = () => {}, host } = {}) {
  /** @type {Array<{ job: EngraveJob, limit: number, resolve: (v: any) => void, reject: (e: Error) => void }>} */
  const queue = [];
  /** @type {import('./engrave-host.js').EngraveHost | null} */
  let worker = null;
  let running = null;
  let nextId = 1;
  let idleTimer = null;
  let closed = false;
  /** Told the engraving process's id when one starts, null when it ends. @type {Set<(pid: number | null) => void>} */
  const processListeners = new Set();
  const tellProcess = (/** @type {number | null} */ pid) => processListeners.forEach((listener) => listener(pid));

  const startWorker = () => {
    const w = startEngraveHost({ heapMb: HEAP_LIMIT_MB, kind: host });
    if (w.pid !== null) tellProcess(w.pid);
    w.onMessage((message) => {
      if (!running || message.id !== running.id) return;
      const { entry, timer } = running;
      clearTimeout(timer);
      running = null;
      if (message.ok) entry.resolve(message.value);
      else entry.reject(message.known ? new ImportError(message.message) : new Error(message.message));
      pump();
    });
    // A host that dies fails its job; the next job starts a new one.
    w.onDeath((why) => {
      if (worker === w) {
        worker = null;
        if (w.pid !== null) tellProcess(null); // (one ended on purpose was forgotten already: a newer one may run)
      }
      if (running && running.w === w) {
        const { entry, timer } = running;
        clearTimeout(timer);
        running = null;
        entry.reject(new ImportError(why));
      }
      pump();
    });
    return w;
  };

  const pump = () => {
    if (closed || running || queue.length === 0) {
      if (!running && queue.length === 0 && worker && !idleTimer) idleTimer = setTimeout(stopIdle, idleMs);
      return;
    }
    clearTimeout(idleTimer);
    idleTimer = null;
    const entry = /** @type {(typeof queue)[number]} */ (queue.shift());
    worker ??= startWorker();
    const id = nextId++;
    const limit = entry.limit;
    const timer = setTimeout(() => {
      const w = worker;
      worker = null;
      const timedOut = running;
      running = null;
      timedOut?.entry.reject(
        new ImportError(`engraving took more than ${limit >= 1000 ? `${Math.round(limit / 1000)} s` : `${limit} ms`}; stopped`),
      );
      if (w?.pid) tellProcess(null); // before it is ended: its id is not held still after
      void w?.stop();
      pump();
    }, limit);
    running = { id, entry, timer, w: worker };
    onJob(entry.job);
    worker.send({ id, job: entry.job });
  };

  const stopIdle = () => {
    idleTimer = null;
    if (running || queue.length > 0 || !worker) return;
    const w = worker;
    worker = null;
    w.forgetDeath();
    if (w.pid !== null) tellProcess(null);
    void w.stop();
  };

  return {
    /**
     * Run a job on the worker; `urgent` jobs (a tablet is waiting) go before queued background ones.
     * @param {EngraveJob} job
     * @param {{ urgent?: boolean, timeLimitMs?: number }} [options] `timeLimitMs`: this job's limit (default the engraver's)
     * @returns {Promise<any>} the worker's answer; rejects with an ImportError sentence
     */
    run(job, { urgent = false, timeLimitMs: limit = timeLimitMs } = {}) {
      if (closed) return Promise.reject(new ImportError('the server is closing'));
      return new Promise((resolve, reject) => {
        const entry = { job, limit, resolve, reject };
        if (urgent) queue.unshift(entry);
        else queue.push(entry);
        pump();
      });
    },
    /**
     * Move the queued jobs a tablet now waits for to the front.
     * @param {(job: EngraveJob) => boolean} wanted
     */
    promote(wanted) {
      const moved = queue.filter((entry) => wanted(entry.job));
      if (moved.length === 0) return;
      const rest = queue.filter((entry) => !wanted(entry.job));
      queue.splice(0, queue.length, ...moved, ...rest);
    },
    /** Drop the jobs not started yet (another score was loaded); they reject. */
    clearQueue() {
      for (const entry of queue.splice(0)) entry.reject(new ImportError('another score was loaded'));
    },
    /** Jobs waiting plus the one running. */
    pending: () => queue.length + (running ? 1 : 0),
    /**
     * Be told the engraving process's id when one starts and null when it ends (OSC holds it
     * still around beats: osc/hold-still.js). A thread host (the desktop app) has none.
     * @param {(pid: number | null) => void} listener
     */
    onProcess(listener) {
      processListeners.add(listener);
    },
    /** The engraving process's id while one runs (tests read its priority), else null. */
    processId: () => worker?.pid ?? null,
    /** Where Verovio runs now: 'process', 'thread', or null while none runs. */
    hostKind: () => worker?.kind ?? null,
    /** Stop the worker; pending jobs reject. */
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      for (const entry of queue.splice(0)) entry.reject(new ImportError('the server is closing'));
      const w = worker;
      worker = null;
      if (w) {
        w.forgetDeath();
        if (w.pid !== null) tellProcess(null);
        await w.stop();
      }
      if (running) {
        clearTimeout(running.timer);
        running.entry.reject(new ImportError('the server is closing'));
        running = null;
      }
    },
  };
}
