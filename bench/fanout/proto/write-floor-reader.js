// Worker of write-floor.js: opens N sockets to it and reads (and drops) whatever arrives.

import net from 'node:net';
import { serveParent } from '../../lib/child-ipc.js';

serveParent({
  async connect({ port, count }) {
    let open = 0;
    for (let i = 0; i < count; i += 250) {
      await Promise.all(
        Array.from(
          { length: Math.min(250, count - i) },
          () =>
            new Promise((resolve) => {
              const socket = net.connect(port, '127.0.0.1', () => {
                open += 1;
                resolve(undefined);
              });
              socket.on('data', () => {});
              socket.on('error', () => resolve(undefined));
            }),
        ),
      );
    }
    return { open };
  },
});
