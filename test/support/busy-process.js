// A busy background process for the hold-still tests (local-server/src/osc/hold-still.js): it
// spins in 1 ms slices, noting every stretch it did not run (a gap: stopped, or not given a CPU)
// and every OSC packet that reached its UDP port, on its own clock, so the two can be compared
// without another process's clock. The parent asks for them with the IPC message 'report'.

import dgram from 'node:dgram';

const now = () => performance.now();
/** @type {Array<[number, number]>} [from, to] of each stretch of more than 1.5 ms not running */
const gaps = [];
/** @type {number[]} */
const arrivals = [];
const socket = dgram.createSocket('udp4');
socket.on('message', () => arrivals.push(now()));
socket.bind(0, '127.0.0.1', () => process.send?.({ port: socket.address().port }));
process.on('message', (message) => {
  if (message === 'report') process.send?.({ gaps, arrivals });
});
process.on('disconnect', () => process.exit(0));

let last = now();
function slice() {
  const end = now() + 1;
  while (now() < end) {
    const t = now();
    if (t - last > 1.5) gaps.push([last, t]);
    last = t;
  }
  setImmediate(slice); // a turn of the event loop, where packets arrive (µs, unless stopped in it)
}
slice();
