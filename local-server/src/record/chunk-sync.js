// Making a chunk of the performance record durable (docs/how-to/record-and-replay.md#the-performance-record: what
// a power cut can lose). Lines are written to the chunk with a synchronous write — in the
// operating system's cache at once, so a crash of the server loses none — and this has the
// cache flushed to the disk with fsync at sensible points: as soon as a line that matters is
// written (a transport action, a vote's result), and otherwise at most `everyMs` after the first
// line not yet on disk; the rotation and the clean stop flush what is left. The fsync runs on
// libuv's thread pool, never on the event loop, and one at a time: lines written meanwhile are
// covered by another fsync after it. One per chunk file.

import fs from 'node:fs';
import { promisify } from 'node:util';

/** fsync of a file descriptor, off the event loop. */
export const fsyncFd = promisify(fs.fsync);

/** Lines not yet on disk are made durable at most this long after the first of them. */
export const SYNC_MS = 2000;

/**
 * @param {object} options
 * @param {number} options.fd the chunk file, opened for appending
 * @param {string} options.dir the record folder: fsynced with the chunk's first sync, so the new file's entry survives too
 * @param {(fd: number) => Promise<void>} [options.fsync] the fsync (tests count the calls)
 * @param {number} [options.everyMs]
 * @param {(err: Error) => void} options.onError
 * @param {{ syncs: number }} [options.counts] completed chunk fsyncs are counted here (the benchmark prints them)
 */
export function createChunkSync({ fd, dir, fsync = fsyncFd, everyMs = SYNC_MS, onError, counts = { syncs: 0 } }) {
  let folderSynced = false;
  let dirty = false;
  let again = false;
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  /** @type {Promise<void> | null} */
  let running = null;

  async function syncFolder() {
    const handle = await fs.promises.open(dir, 'r');
    try {
      await fsync(handle.fd);
    } finally {
      await handle.close();
    }
  }

  /** Within `everyMs`, unless a sync is already due. */
  function schedule() {
    if (timer || running) return;
    timer = setTimeout(() => {
      timer = null;
      if (dirty) start();
    }, everyMs);
    timer.unref();
  }

  async function run() {
    do {
      again = false;
      dirty = false;
      try {
        await fsync(fd);
        counts.syncs += 1;
        if (!folderSynced) {
          folderSynced = true;
          await syncFolder().catch(() => {}); // Windows cannot open a folder for fsync; the file is still synced
        }
      } catch (err) {
        onError(/** @type {Error} */ (err));
      }
    } while (again);
    running = null;
    // Lines written during the last fsync that nobody asked to hurry: within everyMs.
    if (dirty) schedule();
  }

  /** Sync now, or once more right after the sync under way. */
  function start() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (running) again = true;
    else running = run();
    return running;
  }

  return {
    /**
     * A line was written; `urgent`: make it durable now, else within `everyMs`.
     * @param {boolean} [urgent]
     */
    wrote(urgent = false) {
      dirty = true;
      if (urgent) start();
      else schedule();
    },
    /**
     * Make everything written so far durable (before the chunk is closed); resolves when it is.
     * @returns {Promise<void>}
     */
    async flush() {
      while (running) await running;
      if (dirty || !folderSynced) await start();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
