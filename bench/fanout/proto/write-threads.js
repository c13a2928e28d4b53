#!/usr/bin/env node
// Prototype experiment: a fan-out split over threads. Same set-up as write-floor.js; the main
// thread writes its share with socket.write while worker threads write theirs with
// fs.writeSync on the sockets' file descriptors, the main thread waiting for them.
//
//   node bench/fanout/proto/write-threads.js [--sockets 5000] [--threads 1]

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { openLoopbackSockets } from './loopback-sockets.js';
import { median } from '../../lib/stats.js';

if (!isMainThread) {
  const { control, fds, frame } = workerData;
  const flag = new Int32Array(control);
  const bytes = new Uint8Array(frame);
  let short = 0;
  for (;;) {
    Atomics.wait(flag, 0, 0);
    const len = Atomics.load(flag, 1);
    for (const fd of fds) {
      try {
        if (fs.writeSync(fd, bytes, 0, len) !== len) short += 1;
      } catch {
        short += 1;
      }
    }
    Atomics.store(flag, 2, short);
    Atomics.store(flag, 0, 0);
    Atomics.notify(flag, 0);
  }
}

const { values } = parseArgs({ options: { sockets: { type: 'string', default: '5000' }, threads: { type: 'string', default: '1' } } });
const count = Number(values.sockets);
const extra = Number(values.threads) - 1;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { sockets, close } = await openLoopbackSockets(count);
try {
  const frame = new SharedArrayBuffer(250);
  new Uint8Array(frame).fill(97);
  const buffer = Buffer.alloc(250, 97);
  const share = Math.floor(sockets.length / (extra + 1));
  const mine = sockets.slice(0, sockets.length - share * extra);
  const workers = [];
  for (let w = 0; w < extra; w++) {
    const part = sockets.slice(mine.length + w * share, mine.length + (w + 1) * share);
    const control = new SharedArrayBuffer(12);
    const fds = part.map((s) => /** @type {any} */ (s)._handle.fd);
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { control, fds, frame } });
    workers.push({ worker, flag: new Int32Array(control) });
  }
  await sleep(500);
  const times = [];
  const cpu0 = process.cpuUsage();
  for (let k = 0; k < 40; k++) {
    const started = process.hrtime.bigint();
    for (const { flag } of workers) {
      Atomics.store(flag, 1, 250);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    }
    for (const socket of mine) socket.write(buffer);
    for (const { flag } of workers) Atomics.wait(flag, 0, 1);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    await sleep(100);
  }
  const cpu = process.cpuUsage(cpu0);
  const per = (us) => (us / 40 / sockets.length).toFixed(1);
  const wall = median(times);
  const short = workers.reduce((n, { flag }) => n + Atomics.load(flag, 2), 0);
  process.stdout.write(
    `${sockets.length} sockets, ${extra + 1} thread(s): fan-out median ${wall.toFixed(1)} ms = ${((wall * 1000) / sockets.length).toFixed(1)} µs per socket; ` +
      `CPU ${per(cpu.user + cpu.system)} µs per socket; short writes ${short}\n`,
  );
  for (const { worker } of workers) worker.terminate();
} finally {
  await close();
}
