// The entries of one record, kept chunk by chunk (docs/how-to/record-and-replay.md#the-performance-record: the
// console's replay pages through a record, and a long show is tens of MB of JSON lines to gunzip
// and parse). A gzipped chunk is closed and never changes, so it is read once; the plain chunk
// being written changes with every line, so only it is read again when its size or time moved.
// Only the most recently read record is kept. Runs in the record thread (record-worker.js).

import fs from 'node:fs';
import { joinChunks, readChunk, recordChunks } from './record-reader.js';

/**
 * @returns {{ read: (dir: string) => ReturnType<typeof joinChunks>, chunksRead: () => number }}
 *   chunksRead: how many chunk files were read and parsed so far (tests check what is cached)
 */
export function createRecordCache() {
  /** @type {string | null} */
  let keptDir = null;
  /** @type {Map<string, { print: string, part: ReturnType<typeof readChunk> }>} file → its last read */
  let chunks = new Map();
  /** @type {{ print: string, record: ReturnType<typeof joinChunks> } | null} the joined record */
  let joined = null;
  let reads = 0;
  return {
    /**
     * Every entry of the record in `dir` (record-reader.js readRecord), reading only the chunks
     * that changed since the last call.
     * @param {string} dir
     */
    read(dir) {
      if (dir !== keptDir) {
        keptDir = dir;
        chunks = new Map();
        joined = null;
      }
      const list = recordChunks(dir);
      const next = new Map();
      const prints = [];
      for (const chunk of list) {
        const s = fs.statSync(chunk.file);
        const print = `${s.size}:${s.mtimeMs}`;
        prints.push(`${chunk.file}:${print}`);
        const known = chunks.get(chunk.file);
        if (known && known.print === print) next.set(chunk.file, known);
        else {
          reads += 1;
          next.set(chunk.file, { print, part: readChunk(chunk) });
        }
      }
      chunks = next;
      const print = prints.join('|');
      if (joined?.print === print) return joined.record;
      const record = joinChunks(
        dir,
        [...next.values()].map((c) => c.part),
      );
      joined = { print, record };
      return record;
    },
    chunksRead: () => reads,
  };
}
