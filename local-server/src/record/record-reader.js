// Reading performance records (docs/how-to/record-and-replay.md#the-performance-record): the list for the console
// and `tutti report`, and every entry of one record in order. A crash can leave a torn last
// line in a chunk: it is skipped and counted, never an error.

import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chunkFiles, RECORD_ID, SUMMARY_FILE } from './record-writer.js';

/** A record that cannot be read: `tutti report` prints the message, the console shows it. */
export class RecordError extends Error {}

/**
 * @typedef {object} RecordListing
 * @property {string} id
 * @property {string} dir
 * @property {{ id: string, title: string } | null} score the score the show began with
 * @property {number} startedAt epoch ms
 * @property {number | null} endedAt null when the show never stopped cleanly (a crash, or still running)
 * @property {number} durationMs to the clean stop, else to the newest chunk's last write
 * @property {number} bytes on disk
 * @property {number} resumes how often a crash-resumed server continued it
 */

/**
 * The records in `root`, newest first. Folders that are not records are left out.
 * @param {string} root
 * @returns {RecordListing[]}
 */
export function listRecords(root) {
  let names;
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  const out = [];
  for (const id of names.filter((name) => RECORD_ID.test(name))) {
    const dir = path.join(root, id);
    try {
      const summary = JSON.parse(fs.readFileSync(path.join(dir, SUMMARY_FILE), 'utf8'));
      const chunks = chunkFiles(dir);
      const stats = chunks.map((c) => fs.statSync(c.file));
      const lastWrite = Math.max(summary.startedAt, ...stats.map((s) => s.mtimeMs));
      out.push({
        id,
        dir,
        score: summary.score ?? null,
        startedAt: summary.startedAt,
        endedAt: summary.endedAt ?? null,
        durationMs: Math.max(0, Math.round((summary.endedAt ?? lastWrite) - summary.startedAt)),
        bytes: stats.reduce((sum, s) => sum + s.size, 0),
        resumes: summary.resumes ?? 0,
      });
    } catch {
      // Not readable as a record (being created, or damaged by hand): not listed.
    }
  }
  return out.sort((a, b) => b.startedAt - a.startedAt || (b.id < a.id ? -1 : 1));
}

/**
 * The chunk files of a record folder (record-writer.js chunkFiles), or a RecordError that says
 * why the folder is not a record.
 * @param {string} dir
 */
export function recordChunks(dir) {
  let chunks;
  try {
    chunks = chunkFiles(dir);
  } catch (err) {
    throw new RecordError(
      `${dir} is not a performance record: ${/** @type {any} */ (err).code === 'ENOENT' ? 'no such folder' : /** @type {Error} */ (err).message}`,
    );
  }
  if (chunks.length === 0) throw new RecordError(`${dir} is not a performance record: it has no chunks (0001.jsonl.gz, …)`);
  return chunks;
}

/**
 * The entries of one chunk file, its torn lines counted.
 * @param {{ file: string, gz: boolean }} chunk
 * @returns {{ entries: any[], torn: number, disk: number, json: number }}
 */
export function readChunk(chunk) {
  const raw = fs.readFileSync(chunk.file);
  let text;
  try {
    text = (chunk.gz ? gunzipSync(raw) : raw).toString('utf8');
  } catch (err) {
    throw new RecordError(`${chunk.file} cannot be unpacked: ${/** @type {Error} */ (err).message}`);
  }
  const entries = [];
  let torn = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      torn += 1;
    }
  }
  return { entries, torn, disk: raw.length, json: Buffer.byteLength(text) };
}

/**
 * The whole record from its chunks' contents, or a RecordError when it has no "open" entry.
 * @param {string} dir
 * @param {Array<ReturnType<typeof readChunk>>} parts
 * @returns {{ entries: any[], torn: number, bytes: { disk: number, json: number } }}
 */
export function joinChunks(dir, parts) {
  const entries = parts.length === 1 ? parts[0].entries : parts.flatMap((p) => p.entries);
  if (!entries.some((e) => e.k === 'open')) throw new RecordError(`${dir} is not a performance record: no "open" entry in its chunks`);
  const sum = (key) => parts.reduce((n, p) => n + p[key], 0);
  return { entries, torn: sum('torn'), bytes: { disk: sum('disk'), json: sum('json') } };
}

/**
 * Every entry of a record, in the order written, and how many torn lines were skipped.
 * @param {string} dir a record folder
 * @returns {{ entries: any[], torn: number, bytes: { disk: number, json: number } }}
 */
export function readRecord(dir) {
  return joinChunks(dir, recordChunks(dir).map(readChunk));
}
