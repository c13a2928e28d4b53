// The performance record on disk (README.md, "The performance record"): one folder per show in
// the state folder's records/, holding numbered chunks of JSON lines. The chunk being written is
// plain (`0003.jsonl`, appended line by line with a synchronous write, so a crash keeps every
// line written before it); a full chunk, and the last one at a clean stop, is gzipped off the
// event loop into `0003.jsonl.gz` (about 10× smaller). `summary.json` says what the console's
// list needs without reading the chunks.

import fs from 'node:fs';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import { writeFileDurably } from '../resume-file.js';

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
  const packed = await gzipAsync(await fs.promises.readFile(file), { level: 9 });
  await writeFileDurably(`${file}.gz`, /** @type {any} */ (packed));
  await fs.promises.unlink(file);
}

/**
 * Open a record folder for appending: a new one, or (after a crash) the interrupted show's, whose
 * plain chunk left by the crash is gzipped as it is (its torn last line included; the reader
 * skips it) before a new chunk begins.
 * @param {{ root: string, id: string, summary: Record<string, unknown>, chunkBytes?: number, onError: (err: Error) => void }} options
 */
export async function openRecordWriter({ root, id, summary, chunkBytes = CHUNK_BYTES, onError }) {
  const dir = path.join(root, id);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const existing = chunkFiles(dir);
  for (const chunk of existing.filter((c) => !c.gz)) await compressChunk(chunk.file);
  let n = existing.length ? existing[existing.length - 1].n + 1 : 1;
  let fd = fs.openSync(path.join(dir, chunkName(n)), 'a', 0o600);
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

  function rotate() {
    fs.closeSync(fd);
    const full = path.join(dir, chunkName(n));
    n += 1;
    fd = fs.openSync(path.join(dir, chunkName(n)), 'a', 0o600);
    size = 0;
    later(() => compressChunk(full));
  }

  return {
    id,
    dir,
    /**
     * Append one line (a JSON text without its newline). Never throws: a disk error is reported
     * once and recording stops; the show carries on.
     * @param {string} line
     */
    append(line) {
      if (broken) return;
      try {
        if (size >= chunkBytes) rotate();
        const bytes = Buffer.from(`${line}\n`);
        fs.writeSync(fd, bytes);
        size += bytes.length;
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
    /** A clean stop: the last chunk is gzipped too. */
    async close() {
      try {
        fs.closeSync(fd);
      } catch (err) {
        onError(/** @type {Error} */ (err));
      }
      const last = path.join(dir, chunkName(n));
      await later(() => compressChunk(last));
    },
  };
}
