#!/usr/bin/env node
// Prototype experiment: the floor of a Node fan-out on this machine. N plain TCP sockets on
// 127.0.0.1 (read by a separate process), one 250-byte Buffer written to each with
// socket.write, 40 times. Prints wall time per socket and the user/system CPU split: on
// loopback the system part also pays for delivering the segment to the reader.
//
//   node bench/fanout/proto/write-floor.js [--sockets 5000]

import { parseArgs } from 'node:util';
import { openLoopbackSockets } from './loopback-sockets.js';
import { median } from '../../lib/stats.js';

const { values } = parseArgs({ options: { sockets: { type: 'string', default: '5000' } } });
const count = Number(values.sockets);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { sockets, close } = await openLoopbackSockets(count);
try {
  const buffer = Buffer.alloc(250, 97);
  const times = [];
  const cpu0 = process.cpuUsage();
  for (let k = 0; k < 40; k++) {
    const started = process.hrtime.bigint();
    for (const socket of sockets) socket.write(buffer);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    await sleep(100);
  }
  const cpu = process.cpuUsage(cpu0);
  const per = (us) => (us / 40 / sockets.length).toFixed(1);
  const wall = median(times);
  process.stdout.write(
    `${sockets.length} sockets: fan-out median ${wall.toFixed(1)} ms = ${((wall * 1000) / sockets.length).toFixed(1)} µs per socket; ` +
      `CPU ${per(cpu.user + cpu.system)} µs per socket (user ${per(cpu.user)}, system ${per(cpu.system)})\n`,
  );
} finally {
  await close();
}
