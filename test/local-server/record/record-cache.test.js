// The record thread's cache (local-server/src/record/record-cache.js, issue 40 item 9): a record
// being written is read again on every replay page, and only its open (plain) chunk changes, so
// only that chunk is read again; its closed, gzipped chunks are read once.
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRecordCache } from '../../../local-server/src/record/record-cache.js';
import { chunkFiles } from '../../../local-server/src/record/record-writer.js';
import { writeBigRecord } from '../../support/big-record.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-record-cache-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test('a growing record: its closed chunks are read once, its open chunk again when it grows', () => {
  const big = writeBigRecord(root, { mb: 3 });
  const chunks = chunkFiles(big.dir).length;
  expect(chunks).toBeGreaterThanOrEqual(3);
  const cache = createRecordCache();
  expect(cache.read(big.dir).entries).toHaveLength(big.lines);
  expect(cache.chunksRead()).toBe(chunks);

  const same = cache.read(big.dir);
  expect(cache.chunksRead()).toBe(chunks); // nothing changed, nothing read
  expect(cache.read(big.dir)).toBe(same);

  fs.appendFileSync(big.open, `${JSON.stringify({ t: 1, k: 'log', level: 'warn', msg: 'new line' })}\n`);
  const grown = cache.read(big.dir);
  expect(cache.chunksRead()).toBe(chunks + 1); // the open chunk only
  expect(grown.entries).toHaveLength(big.lines + 1);
  expect(grown.entries.at(-1).msg).toBe('new line');
  expect(grown.entries[0].k).toBe('open');
});
