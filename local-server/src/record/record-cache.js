// The entries of one record, read once and kept while its chunks do not change (README.md, "The
// performance record": the console's replay pages through a record, and a 2-hour show is ~2 MB
// of JSON lines to gunzip and parse). The record being written changes with every line, so it
// is read again when its chunks' sizes or times moved. Only the most recently read record is kept.

import fs from 'node:fs';
import { chunkFiles } from './record-writer.js';
import { readRecord } from './record-reader.js';

/** What a record's chunks look like on disk now: a change means new lines. */
function fingerprint(dir) {
  return chunkFiles(dir)
    .map((c) => {
      const s = fs.statSync(c.file);
      return `${c.file}:${s.size}:${s.mtimeMs}`;
    })
    .join('|');
}

/**
 * @returns {{ read: (dir: string) => ReturnType<typeof readRecord> }}
 */
export function createRecordCache() {
  /** @type {{ dir: string, print: string, record: ReturnType<typeof readRecord> } | null} */
  let kept = null;
  return {
    /**
     * Every entry of the record in `dir` (readRecord), from memory when nothing changed.
     * @param {string} dir
     */
    read(dir) {
      let print = null;
      try {
        print = fingerprint(dir);
      } catch {
        // Not there: readRecord says so in its own words.
      }
      if (kept && print !== null && kept.dir === dir && kept.print === print) return kept.record;
      const record = readRecord(dir);
      kept = print === null ? null : { dir, print, record };
      return record;
    },
  };
}
