// A loopback TCP proxy whose "network" can be cut: while cut, nothing flows either way on any
// connection, old or new (a phone whose Wi-Fi went away); when restored, the stalled connections
// carry on where they were. Nothing is reset, so the page sees only what a real outage shows it.

import { startTcpProxy } from './tcp-proxy.js';

/** @param {{ targetPort: number | string }} options */
export async function startOutageProxy({ targetPort }) {
  let cut = false;
  /** @type {Array<[import('node:net').Socket, import('node:net').Socket]>} */
  const pairs = [];
  const connect = ([client, upstream]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ([client, upstream]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const proxy = await startTcpProxy({
    targetPort: Number(targetPort),
    onPair(client, upstream) {
      const pair = /** @type {[import('node:net').Socket, import('node:net').Socket]} */ ([client, upstream]);
      pairs.push(pair);
      client.once('close', () => pairs.splice(pairs.indexOf(pair), 1));
      if (cut) hold(pair);
      else connect(pair);
    },
  });
  return {
    ...proxy,
    cut() {
      cut = true;
      pairs.forEach(hold);
    },
    restore() {
      cut = false;
      pairs.forEach(connect);
    },
  };
}
