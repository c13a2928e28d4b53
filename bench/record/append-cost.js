// What making the record durable costs a show (docs/how-to/record-and-replay.md#the-performance-record): lines
// appended as a show appends them — a few per event-loop turn, an action now and then — through
// the real record writer with its fsync policy (at once after an action, else within SYNC_MS),
// against the same writer whose fsync does nothing, in the same run. Reports the time the
// appends hold the event loop per turn (the fsyncs run on the thread pool) and the fsyncs done.

import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRecordWriter } from '../../local-server/index.js';
import { percentile } from '../lib/stats.js';

const LINE = JSON.stringify({
  k: 'env',
  e: { v: 1, type: 'delta', epoch: 'abcdefgh', seq: 1, t: 1, data: { position: { bar: 12, beat: 3, at: 1 } } },
});

/**
 * @param {{ turns: number, perTurn: number, actionEvery: number, syncMs: number, fsync?: (fd: number) => Promise<void> }} options
 * @returns {Promise<{ p50Us: number, p99Us: number, maxUs: number, syncs: number, wallMs: number }>}
 */
export async function appendCost({ turns, perTurn, actionEvery, syncMs, fsync }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'tutti-bench-append-'));
  try {
    const writer = await openRecordWriter({
      root,
      id: '20260101-000000-bnch',
      summary: { v: 1, startedAt: Date.now() },
      syncMs,
      onError: (err) => {
        throw err;
      },
      ...(fsync ? { fsync } : {}),
    });
    const held = [];
    const t0 = performance.now();
    for (let turn = 0; turn < turns; turn += 1) {
      const s = performance.now();
      for (let i = 0; i < perTurn; i += 1) writer.append(LINE, { durable: (turn * perTurn + i) % actionEvery === 0 });
      held.push((performance.now() - s) * 1000);
      await nextTurn();
    }
    const wallMs = performance.now() - t0;
    await writer.close();
    return {
      p50Us: Math.round(percentile(held, 50)),
      p99Us: Math.round(percentile(held, 99)),
      maxUs: Math.round(Math.max(...held)),
      syncs: writer.syncs(),
      wallMs: Math.round(wallMs),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
