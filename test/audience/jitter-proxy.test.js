// The jitter proxy the sync and resilience tests rely on must delay chunks without ever
// reordering them (TCP cannot), even when its timers fire late on a busy machine.
import net from 'node:net';
import { startJitterProxy } from './support/jitter-proxy.js';
import { waitFor } from '../support/clients.js';

test('chunks arrive delayed but byte-for-byte in order, even with a stalled event loop', async () => {
  const received = [];
  const echo = net.createServer((socket) => socket.on('data', (d) => received.push(d)));
  await new Promise((r) => echo.listen(0, '127.0.0.1', r));
  // Small delays make "this chunk's delay is shorter than the wait of the one before" common.
  const proxy = await startJitterProxy({ targetPort: echo.address().port, maxDelayMs: 3 });
  const client = net.connect(new URL(proxy.url).port, '127.0.0.1');
  client.setNoDelay(true);
  await new Promise((r) => client.once('connect', r));
  const sent = [];
  for (let i = 0; i < 400; i += 1) {
    const chunk = Buffer.from(`${i};`);
    sent.push(chunk);
    client.write(chunk);
    await new Promise((r) => setImmediate(r));
    if (i % 40 === 0) {
      const until = performance.now() + 5; // the proxy's pending timers now fire late
      while (performance.now() < until);
    }
  }
  const total = Buffer.concat(sent).length;
  await waitFor(() => Buffer.concat(received).length >= total, 5000, 'every byte through the proxy');
  expect(Buffer.concat(received).toString()).toBe(Buffer.concat(sent).toString());
  client.destroy();
  await proxy.close();
  await new Promise((r) => echo.close(r));
});
