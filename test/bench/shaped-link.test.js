// The simulated venue link of bench:notation-join (bench/lib/shaped-link.js): bytes arrive whole
// and in order, a reply takes at least the round trip (plus one for the connection), and the
// link's rate is shared: two clients downloading at once take about as long as both downloads in
// a row, not as one.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import net from 'node:net';
import { startShapedLink } from '../../bench/lib/shaped-link.js';

const SIZE = 200_000; // bytes per download
let server;
let link;

beforeAll(async () => {
  // Answers every byte it receives with SIZE bytes of a numbered pattern.
  server = net.createServer((socket) =>
    socket.on('data', () => socket.write(Buffer.from(Array.from({ length: SIZE }, (_, i) => i % 251)))),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  link = await startShapedLink({ targetPort: server.address().port, mbit: 8, rttMs: 40 }); // 1 byte/µs
});

afterAll(async () => {
  await link?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Connect through the link, send one byte, and time until SIZE bytes came back. */
const download = () =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks = [];
    let got = 0;
    const socket = net.connect(link.port, '127.0.0.1', () => socket.write('x'));
    socket.on('data', (c) => {
      chunks.push(c);
      got += c.length;
      if (got >= SIZE) {
        socket.destroy();
        resolve({ ms: performance.now() - started, body: Buffer.concat(chunks) });
      }
    });
    socket.on('error', reject);
  });

test('one download: whole, in order, after the handshake and the round trip, at the link rate', async () => {
  const { ms, body } = await download();
  expect(body.equals(Buffer.from(Array.from({ length: SIZE }, (_, i) => i % 251)))).toBe(true);
  // 40 ms handshake + 40 ms round trip + 200 ms on the wire (8 Mbit/s), with slack for a busy machine
  expect(ms).toBeGreaterThanOrEqual(270);
  expect(ms).toBeLessThan(2000);
});

test('two at once share the link: the later one finishes after both downloads’ worth of time', async () => {
  const both = await Promise.all([download(), download()]);
  expect(Math.max(...both.map((d) => d.ms))).toBeGreaterThanOrEqual(470); // 80 + 2 × 200 minus slack
  expect(link.stats().down).toBeGreaterThanOrEqual(3 * SIZE);
});
