// The plumbing every test proxy shares: listen on 127.0.0.1, open an upstream connection for each
// client (Nagle off on both), tear the pair down together, and close everything at the end. What
// flows between the two sockets is the caller's: `onPair(client, upstream)` wires it.

import net from 'node:net';

/**
 * @param {object} options
 * @param {number} options.targetPort
 * @param {string} [options.targetHost]
 * @param {(client: net.Socket, upstream: net.Socket) => void} options.onPair
 * @returns {Promise<{ url: string, port: number, destroyAll: () => void, close: () => Promise<void> }>}
 */
export async function startTcpProxy({ targetPort, targetHost = '127.0.0.1', onPair }) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    onPair(client, upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  const destroyAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** Cut every open connection (a Wi-Fi hop, a middlebox reset). */
    destroyAll,
    close() {
      destroyAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
