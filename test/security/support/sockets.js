// Raw client sockets from chosen 127/8 source addresses. 127.0.0.1 and ::1 are exempt from the
// per-address limits (local-server/src/guards/exempt-address.js); 127.0.0.2 … count as ordinary
// addresses, which lets these tests attack the limits without leaving this machine.
import net from 'node:net';
import http from 'node:http';

/**
 * Open one TCP connection from `from` and send nothing. Resolves once connected (or failed).
 * @returns {Promise<net.Socket & { closedAt?: number }>}
 */
export function idleSocket(port, from) {
  return new Promise((resolve) => {
    const socket = /** @type {net.Socket & { closedAt?: number }} */ (net.connect({ port, host: '127.0.0.1', localAddress: from }));
    socket.on('error', () => {});
    socket.once('close', () => {
      socket.closedAt = performance.now();
    });
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

/**
 * GET a path from a given source address on a fresh connection; resolves with status, body
 * and milliseconds taken, or with an error message.
 */
export function getFrom(port, path, from, headers = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress: from, agent: false, headers, timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode, body, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, error: err.message, ms: performance.now() - started }));
  });
}
