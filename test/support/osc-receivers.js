// Two kinds of OSC receiver musicians run, on real UDP sockets (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver)
// : one that acts on a packet when it arrives, bundles included (node-osc's
// Server, like Pd vanilla's oscparse and Max's udpreceive), and one that holds a bundle until its
// timetag (like liblo and SuperCollider). Both record each message with the time it took effect,
// on a high-resolution wall clock (`wallClock`) that a show server can share (`now` option).

import dgram from 'node:dgram';
import { Server, decode } from 'node-osc';

/**
 * Date.now()'s basis, read at the edge of one of its milliseconds (so to a few µs). Not
 * performance.timeOrigin: that is read once, when the process starts, and a step of the system
 * clock after it (once in a fresh-clone CI run: every tool of test:interop 6 ms "late" against
 * servers started later) leaves it off from Date.now() in the processes started since.
 */
function dateNowBase() {
  const first = Date.now();
  let tick;
  while ((tick = Date.now()) === first) {
    /* at most 1 ms */
  }
  return tick - performance.now();
}
let base = dateNowBase();

/** Wall-clock ms with sub-ms resolution, on Date.now()'s basis; give it to startShowServer as `now` to compare times. */
export const wallClock = () => base + performance.now();

/** Read Date.now()'s basis again (before a measurement against other processes' Date.now()). */
export function recalibrateWallClock() {
  base = dateNowBase();
}

/**
 * node-osc's Server: plain messages and every element of a bundle take effect on arrival.
 * @returns {Promise<{ port: number, received: Array<{ address: string, args: any[], at: number, bundled: boolean }>, close: () => void }>}
 */
export function arrivalReceiver() {
  return new Promise((resolve) => {
    const received = [];
    const server = new Server(0, '127.0.0.1', () => resolve({ port: server.port, received, close: () => server.close() }));
    server.on('message', ([address, ...args]) => received.push({ address, args, at: wallClock(), bundled: false }));
    server.on('bundle', (bundle) => {
      const at = wallClock();
      for (const [address, ...args] of bundle.elements) received.push({ address, args, at, bundled: true });
    });
  });
}

/**
 * A receiver that schedules by timetag (as liblo does): a bundle's messages take effect at its
 * timetag (at once when it is "immediately" or past), a plain message on arrival.
 * @returns {Promise<{ port: number, received: Array<{ address: string, args: any[], at: number, bundled: boolean }>, close: () => void }>}
 */
export function timetagReceiver() {
  const received = [];
  const timers = new Set();
  const socket = dgram.createSocket('udp4');
  const deliver = (message, bundled) =>
    received.push({ address: message.address, args: message.args.map((a) => a.value), at: wallClock(), bundled });
  socket.on('message', (bytes) => {
    let packet;
    try {
      packet = decode(bytes);
    } catch {
      return;
    }
    if (packet.oscType !== 'bundle') return deliver(packet, false);
    const due = packet.timetag * 1000; // node-osc gives Unix seconds; 0 means "immediately"
    const messages = packet.elements.filter((e) => e.oscType === 'message');
    const fire = () => messages.forEach((m) => deliver(m, true));
    const wait = due - wallClock();
    if (!(wait > 0)) return fire();
    // Wake early, then spin the last ms: the receiver's own timing must not blur the measurement.
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        while (wallClock() < due) {
          /* last fraction of a ms */
        }
        fire();
      },
      Math.max(0, wait - 2),
    );
    timers.add(timer);
  });
  return new Promise((resolve) =>
    socket.bind(0, '127.0.0.1', () =>
      resolve({
        port: socket.address().port,
        received,
        close: () => {
          for (const t of timers) clearTimeout(t);
          socket.close();
        },
      }),
    ),
  );
}

/**
 * Timing error of each received `/tutti/beat` against the time that beat sounds (ms; negative:
 * early). `soundsAt` maps "bar:beat" to the time (from /ws position.at or the engine).
 * @param {Array<{ address: string, args: any[], at: number }>} received
 * @param {Map<string, number>} soundsAt
 */
export function beatErrors(received, soundsAt) {
  return received
    .filter((r) => r.address === '/tutti/beat' && soundsAt.has(`${r.args[0]}:${r.args[1]}`))
    .map((r) => r.at - /** @type {number} */ (soundsAt.get(`${r.args[0]}:${r.args[1]}`)));
}

/** Median of numbers. */
export function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A receiver on its own thread: it stamps each packet on arrival even while this thread is busy
 * (a test that blocks the main event loop on purpose). `received()` decodes what arrived.
 * @returns {Promise<{ port: number, received: () => Promise<Array<{ address: string, args: any[], at: number, bundled: boolean }>>, close: () => Promise<number> }>}
 */
export async function threadReceiver() {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(
    `
    const { parentPort } = require('node:worker_threads');
    const socket = require('node:dgram').createSocket('udp4');
    const got = [];
    socket.on('message', (bytes) => got.push([performance.timeOrigin + performance.now(), bytes]));
    socket.bind(0, '127.0.0.1', () => parentPort.postMessage({ port: socket.address().port }));
    parentPort.on('message', () => parentPort.postMessage({ got }));
  `,
    { eval: true },
  );
  const { port } = await new Promise((resolve) => worker.once('message', resolve));
  return {
    port,
    async received() {
      worker.postMessage('report');
      const { got } = await new Promise((resolve) => worker.once('message', resolve));
      return got.flatMap(([at, bytes]) => {
        const packet = decode(Buffer.from(bytes));
        const messages = packet.oscType === 'bundle' ? packet.elements : [packet];
        return messages.map((m) => ({ address: m.address, args: m.args.map((a) => a.value), at, bundled: packet.oscType === 'bundle' }));
      });
    },
    close: () => worker.terminate(),
  };
}
