// Runs one import (import-to-file.js) on a worker thread for the console route, so parsing a
// large MusicXML file (seconds for tens of megabytes) never stalls a show that is playing: the
// server's event loop keeps sending beats. Memory and time are bounded; the worker is ended after.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ImportError } from '#core/import/import-error.js';
import { importToFile } from './import-to-file.js';

const TIME_LIMIT_MS = 120_000;
const HEAP_LIMIT_MB = 2048; // a 10 MB MusicXML file needs about 400 MB while it is read

/**
 * Import on a worker thread; resolves as importToFile would (its `result` holds `kind` and
 * `warnings` only), rejects with an ImportError for a bad file or one that takes too long.
 * @param {Parameters<typeof importToFile>[0]} request
 * @returns {Promise<{ target: string, exists: boolean, lines: string[], score: Record<string, any>, result: { kind: string, warnings: any[] } }>}
 */
export function importInWorker(request) {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = new Worker(new URL(import.meta.url), { workerData: request, resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
    } catch {
      // Where no worker can start (a packaged app that cannot load this file as one), read it here.
      importToFile(request).then(resolve, reject);
      return;
    }
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.terminate().catch(() => {});
      fn(value);
    };
    const timer = setTimeout(
      () => finish(reject, new ImportError(`reading ${request.file} took more than ${TIME_LIMIT_MS / 1000} s; stopped`)),
      TIME_LIMIT_MS,
    );
    const here = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.terminate().catch(() => {});
      importToFile(request).then(resolve, reject);
    };
    worker.once('message', (message) => {
      if (message.ok) finish(resolve, message.done);
      else finish(reject, message.importError ? new ImportError(message.message) : new Error(message.message));
    });
    worker.once('error', (error) => {
      const code = /** @type {any} */ (error).code;
      if (/ERR_WORKER_OUT_OF_MEMORY/.test(code ?? '') || /heap/i.test(error.message))
        finish(reject, new ImportError(`${request.file} needs more than ${HEAP_LIMIT_MB} MB of memory to read; stopped`));
      else if (/ERR_WORKER_(INIT_FAILED|PATH|UNSERIALIZABLE_ERROR)|ERR_MODULE_NOT_FOUND|ENOENT/.test(code ?? '')) here();
      else finish(reject, error);
    });
    worker.once('exit', (code) => finish(reject, new Error(`the import stopped (exit ${code})`)));
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  try {
    const done = await importToFile(workerData);
    port.postMessage({
      ok: true,
      done: {
        target: done.target,
        exists: done.exists,
        lines: done.lines,
        score: done.score,
        result: { kind: done.result.kind, warnings: done.result.warnings },
      },
    });
  } catch (error) {
    port.postMessage({
      ok: false,
      importError: error instanceof ImportError,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
