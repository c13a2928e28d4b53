// Attack: sockets that connect and send nothing, or only half a request line (slowloris), held
// open for as long as the server lets them. They are closed a few seconds after connecting
// (5 s, docs/explanation/threat-model.md) and counted in tutti_connections_rejected_total{reason="idle"}; a socket
// that sent its request in time is not touched.
import { startShow } from '../support/show.js';
import { idleSocket } from './support/sockets.js';

let server;
afterAll(() => server?.close());

const idleClosed = async () => (await server.metrics.connectionsRejected.get()).values.find((v) => v.labels.reason === 'idle')?.value ?? 0;

test('a socket that sends no request (or half of one) is closed within a few seconds', async () => {
  server = await startShow();
  const silent = await idleSocket(server.audiencePort, '127.0.0.2');
  const halfRequest = await idleSocket(server.audiencePort, '127.0.0.2');
  halfRequest.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  const opened = performance.now();
  await Promise.all([silent, halfRequest].map((s) => new Promise((r) => (s.destroyed ? r() : s.once('close', r)))));
  const seconds = (Math.max(silent.closedAt, halfRequest.closedAt) - opened) / 1000;
  console.log(`idle sockets closed after ${seconds.toFixed(2)} s`);
  expect(seconds).toBeGreaterThan(4);
  expect(seconds).toBeLessThan(7);
  expect(await idleClosed()).toBe(2);
}, 20_000);

test('a WebSocket viewer that sends nothing after its handshake stays connected', async () => {
  const { default: WebSocket } = await import('ws');
  const ws = new WebSocket(`ws://127.0.0.1:${server.audiencePort}/ws`, { localAddress: '127.0.0.2' });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  await new Promise((r) => setTimeout(r, 6000));
  expect(ws.readyState).toBe(WebSocket.OPEN);
  ws.close();
}, 20_000);
