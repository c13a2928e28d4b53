// A TCP port on 127.0.0.1 that was free a moment ago, for the few tests that must name a port
// before something listens on it: a server restarted on the same URL, a pref that takes a port,
// a URL that must refuse connections. Everything else listens on port 0.
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
