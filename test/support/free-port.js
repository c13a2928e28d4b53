// A TCP port on 127.0.0.1 that was free a moment ago, for the few tests that must name a port
// before something listens on it: a server restarted on the same URL, a pref that takes a port,
// a URL that must refuse connections, a UDP target nobody reads. Everything else listens on port 0.
import dgram from 'node:dgram';
import net from 'node:net';

/** @returns {Promise<number>} */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}

/** A UDP port on 127.0.0.1 that was free a moment ago (bound, then closed): nobody listens there. */
export async function freeUdpPort() {
  const socket = dgram.createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = socket.address();
  await new Promise((resolve) => socket.close(() => resolve(undefined)));
  return port;
}
