#!/usr/bin/env node
// Where the server's memory per viewer goes (issue 27): the real show server in this process,
// N WebSocket viewers in another (test/support/ws-viewers-process.js), and a V8 heap snapshot
// before and after they join. Prints the heap and RSS per 1,000 viewers after a full GC, and the
// objects each viewer keeps (count and bytes per viewer by constructor), largest first.
//
//   node --expose-gc bench/fanout/proto/heap-census.js [--viewers 2000] [--top 25] [--stream full|lean]
//
// Snapshots go to a temporary directory and are deleted; at 2,000 viewers each is ~50 MB. The RSS
// figure includes what writing the first snapshot left behind; for RSS, the bench's MB/1k>idle.

import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../../local-server/index.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const { values } = parseArgs({
  options: {
    viewers: { type: 'string', default: '2000' },
    top: { type: 'string', default: '25' },
    stream: { type: 'string', default: 'full' },
  },
});
const viewers = Number(values.viewers);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const gc = /** @type {() => void} */ (globalThis.gc);
const MB = 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Memory after two full collections (the second frees what weak callbacks released). */
function settled() {
  gc();
  gc();
  return process.memoryUsage();
}

/**
 * Self size and count per constructor name in a heap snapshot file.
 * @param {string} file
 * @returns {Map<string, { count: number, bytes: number }>}
 */
function census(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  /** @type {Map<string, { count: number, bytes: number }>} */
  const out = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name = type === 'object' ? snapshot.strings[snapshot.nodes[i + nameAt]] : type === 'closure' ? 'closure' : `(${type})`;
    const entry = out.get(name) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += snapshot.nodes[i + sizeAt];
    out.set(name, entry);
  }
  return out;
}

const dir = mkdtempSync(path.join(tmpdir(), 'tutti-heap-'));
const server = await startShowServer({
  scorePath: path.join(ROOT, 'scores/union-rose-load.score.json'),
  host: '127.0.0.1',
  port: 0,
  controlPort: 0,
  token: 'heap-census-token',
  autoplay: true,
  oscTargets: [],
});
/** @type {import('node:child_process').ChildProcess | null} */
let child = null;
try {
  await sleep(2000);
  const idle = settled();
  const before = path.join(dir, 'before.heapsnapshot');
  writeHeapSnapshot(before);
  const idleAfterSnapshot = settled();
  const viewersProcess = fork(path.join(ROOT, 'test/support/ws-viewers-process.js'), [
    `${server.audienceUrl.replace(/^http/, 'ws')}/ws${values.stream === 'lean' ? '?stream=lean' : ''}`,
    String(viewers),
  ]);
  child = viewersProcess;
  await new Promise((resolve, reject) => {
    viewersProcess.on('message', (/** @type {any} */ m) => (m.open ? resolve(m) : reject(new Error(m.error))));
    viewersProcess.once('exit', (code) => reject(new Error(`viewers exited with ${code}`)));
  });
  await sleep(5000); // join snapshots drained, several beats sent
  const connected = server.show.hub.counts().ws;
  if (connected !== viewers) throw new Error(`only ${connected} of ${viewers} viewers are connected`);
  const joined = settled();
  const after = path.join(dir, 'after.heapsnapshot');
  writeHeapSnapshot(after);
  const per1k = (/** @type {number} */ bytes) => ((bytes / MB) * 1000) / viewers;
  console.log(`${viewers} viewers (${values.stream} stream), after a full GC, per 1,000 viewers above idle:`);
  console.log(
    `  heap used ${per1k(joined.heapUsed - idle.heapUsed).toFixed(1)} MB, heap total ${per1k(joined.heapTotal - idle.heapTotal).toFixed(1)} MB,`,
  );
  console.log(
    `  external ${per1k(joined.external - idle.external).toFixed(1)} MB, RSS ${per1k(joined.rss - idleAfterSnapshot.rss).toFixed(1)} MB`,
  );
  const a = census(before);
  const b = census(after);
  const rows = [...b].map(([name, v]) => ({
    name,
    count: v.count - (a.get(name)?.count ?? 0),
    bytes: v.bytes - (a.get(name)?.bytes ?? 0),
  }));
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  console.log(`heap kept per viewer: ${(total / viewers).toFixed(0)} bytes; by constructor (bytes, count per viewer):`);
  for (const row of rows.sort((x, y) => y.bytes - x.bytes).slice(0, Number(values.top)))
    console.log(
      `  ${(row.bytes / viewers).toFixed(0).padStart(6)} B  ${(row.count / viewers).toFixed(2).padStart(6)}  ${row.name.slice(0, 70)}`,
    );
} finally {
  child?.kill();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
