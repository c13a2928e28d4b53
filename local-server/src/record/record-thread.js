// The console's records are read off the show's event loop (issue 40 item 9): a worker thread
// (record-worker.js) reads, caches and renders them, and the routes (routes/records.js) await
// its answers. The worker starts with the first request and is started again after a crash;
// its failures reach the route as errors, a record that cannot be read as a RecordError.

import { Worker } from 'node:worker_threads';
import { RecordError } from './record-reader.js';

const WORKER_URL = new URL('./record-worker.js', import.meta.url);

/**
 * @typedef {object} RecordThread
 * @property {(dir: string, from: number, limit: number) => Promise<{ total: number, torn: number, entries: any[] }>} entries
 * @property {(dir: string) => Promise<{ html: string }>} report
 * @property {(dir: string) => Promise<{ scores: string[], named: Set<string> }>} media
 * @property {() => Promise<number>} chunksRead how many chunk files the worker has read (tests)
 * @property {() => Promise<void>} close
 */

/**
 * @returns {RecordThread}
 */
export function createRecordThread() {
  /** @type {Worker | null} */
  let worker = null;
  let nextId = 1;
  /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
  const waiting = new Map();

  const failAll = (err) => {
    for (const { reject } of waiting.values()) reject(err);
    waiting.clear();
    worker = null;
  };

  function start() {
    const w = new Worker(WORKER_URL);
    w.unref(); // never what keeps a process alive
    w.on('message', (/** @type {any} */ answer) => {
      const pending = waiting.get(answer.id);
      if (!pending) return;
      waiting.delete(answer.id);
      if (answer.ok) pending.resolve(answer.value);
      else if (answer.record) pending.reject(new RecordError(answer.message));
      else pending.reject(Object.assign(new Error(answer.message), { stack: answer.stack }));
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', (code) => {
      if (worker === w) failAll(new Error(`the record thread stopped (exit code ${code})`));
    });
    return w;
  }

  /** @param {Record<string, unknown>} request */
  function ask(request) {
    worker ??= start();
    const id = nextId++;
    const w = worker;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      w.postMessage({ ...request, id });
    });
  }

  return {
    entries: (dir, from, limit) => /** @type {Promise<any>} */ (ask({ op: 'entries', dir, from, limit })),
    report: (dir) => /** @type {Promise<any>} */ (ask({ op: 'report', dir })),
    media: async (dir) => {
      const { scores, named } = /** @type {any} */ (await ask({ op: 'media', dir }));
      return { scores, named: new Set(named) };
    },
    chunksRead: () => /** @type {Promise<number>} */ (ask({ op: 'chunksRead' })),
    async close() {
      const w = worker;
      worker = null;
      failAll(new Error('the record thread is closed'));
      if (w) await w.terminate();
    },
  };
}
