// The set-up the write prototypes share (write-floor.js, write-threads.js): `count` TCP sockets on
// 127.0.0.1 accepted here (Nagle off, as the show server's), their other ends opened and read by a
// separate process (write-floor-reader.js), so the writes here are measured as a server's would be.

import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { forkWorker } from '../../lib/children.js';

const READER = fileURLToPath(new URL('./write-floor-reader.js', import.meta.url));

/**
 * Open `count` loopback connections read by a child process; resolves a second after they are up.
 * @param {number} count
 * @returns {Promise<{ sockets: net.Socket[], close: () => Promise<void> }>}
 */
export async function openLoopbackSockets(count) {
  /** @type {net.Socket[]} */
  const sockets = [];
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    sockets.push(socket);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const port = /** @type {net.AddressInfo} */ (server.address()).port;
  const reader = forkWorker(READER, { name: 'reader' });
  const close = async () => {
    await reader.stop(2000);
    server.close();
    for (const socket of sockets) socket.destroy();
  };
  try {
    await reader.request('connect', { port, count }, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  } catch (err) {
    await close();
    throw err;
  }
  return { sockets, close };
}
