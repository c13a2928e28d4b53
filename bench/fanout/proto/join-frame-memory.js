#!/usr/bin/env node
// Prototype experiment: how much server memory does encoding the join snapshot once per viewer
// cost? Starts join-frame-server.js in each mode, connects N idle WebSocket viewers (no score
// playing, so only the join frame differs), forces a full GC and reports the server's RSS.
//
//   node bench/fanout/proto/join-frame-memory.js [--clients 5000] [--runs 2]

import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { forkWorker } from '../../lib/children.js';
import { readRssBytes } from '../../lib/proc-stats.js';
import { formatTable } from '../../lib/table.js';
import { median } from '../../lib/stats.js';
import { splitClients } from '../run-case.js';
import { DEFAULT_SCORE } from '../args.js';

const SERVER = fileURLToPath(new URL('./join-frame-server.js', import.meta.url));
const CLIENT = fileURLToPath(new URL('../client.js', import.meta.url));
const { values } = parseArgs({ options: { clients: { type: 'string', default: '5000' }, runs: { type: 'string', default: '2' } } });
const clients = Number(values.clients);
const MB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function trial(mode) {
  const server = forkWorker(SERVER, {
    name: `${mode} server`,
    args: ['--mode', mode, '--score', DEFAULT_SCORE],
    execArgv: ['--expose-gc'],
  });
  const workers = [];
  try {
    const ready = await server.waitFor('ready', 30_000);
    await sleep(1000);
    const idle = /** @type {number} */ (readRssBytes(server.pid));
    const shares = splitClients(clients, 5000);
    shares.forEach((_, i) => workers.push(forkWorker(CLIENT, { name: `clients#${i + 1}` })));
    await Promise.all(
      workers.map((w, i) =>
        w.request('init', {
          transport: 'ws',
          audienceUrl: ready.audienceUrl,
          wsUrl: ready.wsUrl,
          count: shares[i],
          batch: 250,
          pollIntervalMs: 500,
          longPollWaitMs: 1000,
        }),
      ),
    );
    const ramps = await Promise.all(workers.map((w) => w.request('connect', { deadlineMs: 120_000 }, 240_000)));
    await sleep(3000);
    const memory = await server.request('memory');
    await sleep(500);
    const rss = /** @type {number} */ (readRssBytes(server.pid));
    const open = ramps.reduce((a, r) => a + r.open, 0);
    return {
      mode,
      clients: open,
      idleMb: idle / MB,
      rssMb: rss / MB,
      kbPerViewer: (rss - idle) / 1024 / open,
      heapUsedMb: memory.heapUsed / MB,
      arrayBuffersMb: memory.arrayBuffers / MB,
      snapshotBytes: ready.snapshotBytes,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop(2000)));
    await server.stop(3000);
  }
}

const rows = [];
for (let run = 0; run < Number(values.runs); run++) {
  for (const mode of run % 2 ? ['cached', 'per-join'] : ['per-join', 'cached']) {
    const row = await trial(mode);
    process.stdout.write(
      `${mode}: ${row.clients} viewers, RSS ${row.rssMb.toFixed(1)} MB after GC (${row.kbPerViewer.toFixed(1)} KB per viewer above idle)\n`,
    );
    rows.push(row);
  }
}
const summary = ['per-join', 'cached'].map((mode) => {
  const of = rows.filter((r) => r.mode === mode);
  const m = (k) => median(of.map((r) => r[k]));
  return {
    mode,
    clients: m('clients'),
    idleMb: m('idleMb'),
    rssMb: m('rssMb'),
    kbPerViewer: m('kbPerViewer'),
    heapUsedMb: m('heapUsedMb'),
    arrayBuffersMb: m('arrayBuffersMb'),
  };
});
process.stdout.write(
  `\nJoin snapshot ${rows[0].snapshotBytes} bytes; medians of ${values.runs} run(s):\n${formatTable(
    [
      { key: 'mode', label: 'join frame' },
      { key: 'clients', label: 'viewers' },
      { key: 'idleMb', label: 'idle RSS MB' },
      { key: 'rssMb', label: 'RSS MB after GC' },
      { key: 'kbPerViewer', label: 'KB/viewer' },
      { key: 'heapUsedMb', label: 'heap used MB' },
      { key: 'arrayBuffersMb', label: 'arrayBuffers MB' },
    ],
    summary,
  )}\n`,
);
