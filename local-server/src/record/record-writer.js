// The performance record on disk (docs/how-to/record-and-replay.md#the-performance-record): one folder per show in
// the state folder's records/, holding numbered chunks of JSON lines. The chunk being written is
// plain (`0003.jsonl`, appended line by line with a synchronous write, so a crash of the server
// keeps every line written before it) and fsynced off the event loop at once after a line that
// matters, else within SYNC_MS (chunk-sync.js: a power cut loses at most that); a full chunk, and
// the last one at a clean stop, is flushed, closed and gzipped off the event loop into
// `0003.jsonl.gz` (about 10× smaller). `summary.json` says what the console's list needs without
// reading the chunks.

import fs from 'node:fs';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import { writeFileDurably } from '../show/resume-file.js';
import { openForAppendSync, readFileNoFollow } from '../files/safe-write.js';
import { createChunkSync, fsyncFd, SYNC_MS } from './chunk-sync.js';

const gzipAsync = promisify(gzip);

/** A chunk is rotated (and gzipped) after this many bytes of JSON lines. */
export const CHUNK_BYTES = 1024 * 1024;
export const SUMMARY_FILE = 'summary.json';
/** Record ids: when the show began (UTC) and a few random letters; safe in a URL and a file name. */
export const RECORD_ID = /^\d{8}-\d{6}-[a-z0-9]{4}$/;

const chunkName = (n) => `${String(n).padStart(4, '0')}.jsonl`;
const CHUNK_FILE = /^(\d{4,})\.jsonl(\.gz)?$/;

/**
 * A new record id for a show starting at `t` (epoch ms).
 * @param {number} t
 */
export function newRecordId(t) {
  const iso = new Date(t).toISOString();
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
  return `${stamp}-${Math.random().toString(36).slice(2, 6).padEnd(4, '0')}`;
}

/**
 * The chunk files of a record folder in order: `{ n, file, gz }`.
 * @param {string} dir
 */
export function chunkFiles(dir) {
  return fs
    .readdirSync(dir)
    .map((name) => ({ name, match: CHUNK_FILE.exec(name) }))
    .filter((c) => c.match)
    .map((c) => ({ n: Number(c.match?.[1]), file: path.join(dir, c.name), gz: Boolean(c.match?.[2]) }))
    .sort((a, b) => a.n - b.n || Number(a.gz) - Number(b.gz));
}

/** Gzip a plain chunk beside itself (temp, fsync, rename), then delete the plain one. */
async function compressChunk(file) {
  // A planted link is refused: following it would copy another file into the record.
  const packed = await gzipAsync(await readFileNoFollow(file), { level: 9 });
  await writeFileDurably(`${file}.gz`, /** @type {any} */ (packed));
  await fs.promises.unlink(file);
}

/**
 * Open a record folder for appending: a new one, or (after a crash) the interrupted show's, whose
 * plain chunk left by the crash is gzipped as it is (its torn last line included; the reader
 * skips it) before a new chunk begins.
 * @param {{ root: string, id: string, summary: Record<string, unknown>, chunkBytes?: number, onError: (err: Error) => void,
 *   syncMs?: number, fsync?: (fd: number) => Promise<void> }} options syncMs, fsync: chunk-sync.js (tests inject the fsync)
 */
export async function openRecordWriter({ root, id, summary, chunkBytes = CHUNK_BYTES, onError, syncMs = SYNC_MS, fsync = fsyncFd }) {
  const dir = path.join(root, id);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const existing = chunkFiles(dir);
  for (const chunk of existing.filter((c) => !c.gz)) await compressChunk(chunk.file);
  let n = existing.length ? existing[existing.length - 1].n + 1 : 1;
  const counts = { syncs: 0 };
  const openChunk = () => {
    // A chunk name linked elsewhere (a planted record folder) is refused (files/safe-write.js).
    const opened = openForAppendSync(path.join(dir, chunkName(n)), 0o600);
    return { fd: opened, sync: createChunkSync({ fd: opened, dir, fsync, everyMs: syncMs, onError, counts }) };
  };
  let chunk = openChunk();
  let size = 0;
  let broken = false;
  /** Rotations and summary writes, one after another. */
  let pending = Promise.resolve();
  const later = (job) => {
    pending = pending.then(job).catch((err) => onError(err));
    return pending;
  };
  let current = { ...summary };
  await writeFileDurably(path.join(dir, SUMMARY_FILE), JSON.stringify(current));

  /** Make a chunk durable and close it (off the event loop but for the close). */
  async function retire({ fd, sync }) {
    await sync.flush();
    fs.closeSync(fd);
  }

  function rotate() {
    const full = path.join(dir, chunkName(n));
    const old = chunk;
    n += 1;
    chunk = openChunk();
    size = 0;
    later(async () => {
      await retire(old);
      await compressChunk(full);
    });
  }

  return {
    id,
    dir,
    /**
     * Append one line (a JSON text without its newline). Never throws: a disk error is reported
     * once and recording stops; the show carries on.
     * @param {string} line
     * @param {{ durable?: boolean }} [options] durable: on disk as soon as possible (an action), not within SYNC_MS
     */
    append(line, { durable = false } = {}) {
      if (broken) return;
      try {
        if (size >= chunkBytes) rotate();
        const bytes = Buffer.from(`${line}\n`);
        fs.writeSync(chunk.fd, bytes);
        size += bytes.length;
        chunk.sync.wrote(durable);
      } catch (err) {
        broken = true;
        onError(/** @type {Error} */ (err));
      }
    },
    /** Merge fields into summary.json (written durably, in order). */
    summarize(fields) {
      current = { ...current, ...fields };
      const text = JSON.stringify(current);
      return later(() => writeFileDurably(path.join(dir, SUMMARY_FILE), text));
    },
    /** A clean stop: the last chunk is made durable, closed and gzipped too. */
    async close() {
      const last = path.join(dir, chunkName(n));
      const current = chunk;
      await later(async () => {
        await retire(current);
        await compressChunk(last);
      });
    },
    /** How many chunk fsyncs have completed (npm run bench:record prints it). */
    syncs: () => counts.syncs,
  };
}
