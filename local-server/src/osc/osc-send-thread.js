// Start the OSC send thread (osc-send-worker.js) for osc.js: jobs go to a worker thread, whose
// event loop does nothing but wait for the next beat, so the main loop's fan-out to the viewers
// cannot delay a send. Where no worker can start (an embedding that forbids them, a missing
// file), the same core runs in the main thread instead, with a warning: beats are still timed,
// only not isolated. Jobs posted before the worker is ready are kept and handed to whichever runs.

import { Worker } from 'node:worker_threads';
import { createSendCore } from './osc-send-core.js';

const WORKER_URL = new URL('./osc-send-worker.js', import.meta.url);

/**
 * @param {(report: import('./osc-send-core.js').SendReport) => void} onReport
 * @param {{ warn: (msg: string) => void }} log
 * @param {URL} [workerUrl] the worker's module (tests: one that cannot start)
 * @returns {{ post: (job: import('./osc-send-core.js').SendJob) => void, close: () => void, mode: () => 'worker' | 'starting' | 'main thread' }}
 */
export function startSendThread(onReport, log, workerUrl = WORKER_URL) {
  /** @type {Worker | null} */
  let worker = null;
  let ready = false;
  /** @type {import('./osc-send-core.js').SendJob[]} jobs waiting for the worker to start */
  let queued = [];
  /** @type {{ handle: (job: any) => void } | null} */
  let inProcess = null;

  const fallBack = (reason) => {
    if (inProcess) return;
    log.warn(`OSC: no send thread (${reason}); sending from the main thread, where a busy moment can delay a beat`);
    worker?.removeAllListeners();
    worker = null;
    inProcess = createSendCore(onReport);
    for (const job of queued) inProcess.handle(job);
    queued = [];
  };
  try {
    worker = new Worker(workerUrl);
    worker.unref(); // never what keeps a process alive
    worker.on('message', (/** @type {any} */ report) => {
      if (report.type !== 'ready') return onReport(report);
      ready = true;
      for (const job of queued) worker?.postMessage(job);
      queued = [];
    });
    worker.on('error', (err) => fallBack(err.message));
  } catch (err) {
    fallBack(/** @type {Error} */ (err).message);
  }

  const post = (job) => {
    if (inProcess) inProcess.handle(job);
    else if (ready) worker?.postMessage(job);
    else queued.push(job);
  };
  return {
    post,
    close: () => post({ type: 'close' }),
    mode: () => (inProcess ? 'main thread' : ready ? 'worker' : 'starting'),
  };
}
