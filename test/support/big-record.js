// A long performance record written straight to disk for tests (docs/how-to/record-and-replay.md#the-performance-record)
// : an `open` entry, then beat envelopes in gzipped 1 MB chunks, and a last plain chunk
// as if the show were still being recorded. Bounded by `mb` (megabytes of JSON lines).

import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SUMMARY_FILE } from '../../local-server/src/record/record-writer.js';

const CHUNK = 1024 * 1024;

/**
 * @param {string} root a records folder
 * @param {{ id?: string, mb: number }} options
 * @returns {{ dir: string, id: string, lines: number, open: string }} open: the plain chunk being "written"
 */
export function writeBigRecord(root, { id = '20260101-200000-big0', mb }) {
  const dir = path.join(root, id);
  fs.mkdirSync(dir, { recursive: true });
  const t0 = Date.UTC(2026, 0, 1, 20);
  fs.writeFileSync(
    path.join(dir, SUMMARY_FILE),
    JSON.stringify({ v: 1, id, score: { id: 'big', title: 'Big' }, startedAt: t0, endedAt: null, resumes: 0 }),
  );
  const score = { id: 'big', title: 'Big', path: path.join(root, 'big.score.json') };
  let lines = [JSON.stringify({ t: t0, k: 'open', id, resumed: false, score, epoch: 'e1', version: '0.1.0', pid: 1 })];
  let size = lines[0].length;
  let n = 1;
  let count = 1;
  const flush = (gz) => {
    const text = `${lines.join('\n')}\n`;
    const file = path.join(dir, `${String(n).padStart(4, '0')}.jsonl${gz ? '.gz' : ''}`);
    fs.writeFileSync(file, gz ? gzipSync(text, { level: 1 }) : text);
    n += 1;
    lines = [];
    size = 0;
  };
  for (let i = 0; size + (n - 1) * CHUNK < mb * CHUNK; i += 1) {
    const t = t0 + i * 250;
    const data =
      i === 0
        ? { transport: 'playing', tempo: 240, position: { bar: 1, beat: 1, at: t } }
        : { position: { bar: 1 + (i >> 2), beat: 1 + (i % 4), at: t } };
    const line = JSON.stringify({ k: 'env', e: { v: 1, type: i === 0 ? 'snapshot' : 'delta', epoch: 'e1', seq: i, t, data } });
    lines.push(line);
    size += line.length + 1;
    count += 1;
    if (size >= CHUNK) flush(true);
  }
  const open = path.join(dir, `${String(n).padStart(4, '0')}.jsonl`);
  flush(false);
  return { dir, id, lines: count, open };
}
