// A child process holding N WebSocket viewers of one URL (so their memory is not the server's):
// tells its parent { open } once all are open, and exits when the parent says so or goes away.
// argv: URL N

import { WebSocket } from 'ws';

const [url, count] = [process.argv[2], Number(process.argv[3])];
let open = 0;
const sockets = [];
for (let i = 0; i < count; i += 1) {
  const ws = new WebSocket(url);
  ws.on('open', () => {
    open += 1;
    if (open === count) process.send?.({ open });
  });
  ws.on('message', () => {});
  ws.on('error', (err) => process.send?.({ error: err.message }));
  sockets.push(ws);
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
}
process.on('message', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
