// Attack: one phone holds as many connections as it can (WebSockets, SSE streams, keep-alive
// HTTP) to starve the server of sockets, or to fill --max-clients by itself. One address holds at
// most --max-per-address sockets (default 16); beyond that its new sockets are closed at once and
// counted in tutti_connections_rejected_total{reason="per_address"}, and another address is
// served normally. With --max-clients, one address holds at most half of the cap.
import http from 'node:http';
import WebSocket from 'ws';
import { startShow } from '../support/show.js';
import { getFrom } from './support/sockets.js';

const servers = [];
const open = [];
afterAll(async () => {
  open.forEach((c) => c.destroy?.() ?? c.terminate?.());
  await Promise.all(servers.map((s) => s.close()));
});

/** A WebSocket from `from`; resolves 'open' or the failure. */
function wsFrom(port, from, headers = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { localAddress: from, headers });
  open.push(ws);
  return new Promise((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => resolve(`http ${res.statusCode}`));
    ws.once('close', (code) => resolve(`close ${code}`));
    ws.once('error', (err) => resolve(`error ${err.message}`));
  });
}

/** An SSE stream from `from` (kept open); resolves with the status or the failure. */
function sseFrom(port, from, headers = {}) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/sse', localAddress: from, agent: false, headers }, (res) => {
      open.push(res.socket);
      resolve(res.statusCode);
    });
    req.on('error', (err) => resolve(err.message));
  });
}

const rejected = async (server) =>
  (await server.metrics.connectionsRejected.get()).values.find((v) => v.labels.reason === 'per_address')?.value ?? 0;

test('one address: WebSocket + SSE + keep-alive sockets are capped at --max-per-address; another address is served', async () => {
  const server = await startShow({ maxPerAddress: 6 });
  servers.push(server);
  const port = server.audiencePort;
  const results = [];
  for (let i = 0; i < 3; i += 1) results.push(await wsFrom(port, '127.0.0.2'));
  for (let i = 0; i < 2; i += 1) results.push(await sseFrom(port, '127.0.0.2'));
  // A keep-alive HTTP socket counts too.
  const agent = new http.Agent({ keepAlive: true, localAddress: '127.0.0.2', maxSockets: 1 });
  const keepAlive = await new Promise((resolve) =>
    http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }),
  );
  expect([...results, keepAlive]).toEqual(['open', 'open', 'open', 200, 200, 200]);
  const beyond = [await wsFrom(port, '127.0.0.2'), await sseFrom(port, '127.0.0.2'), (await getFrom(port, '/healthz', '127.0.0.2')).status];
  expect(beyond.every((r) => r !== 'open' && r !== 200)).toBe(true);
  expect(await rejected(server)).toBeGreaterThanOrEqual(3);
  expect(await wsFrom(port, '127.0.0.3')).toBe('open');
  expect((await getFrom(port, '/healthz', '127.0.0.3')).status).toBe(200);
  // The exempt machine itself (load tests) is not capped.
  expect((await getFrom(port, '/healthz', '127.0.0.1')).status).toBe(200);
  agent.destroy();
});

test('behind a reverse proxy (--trust-proxy): the cap applies per X-Forwarded-For address', async () => {
  const server = await startShow({ maxPerAddress: 4, trustProxy: true });
  servers.push(server);
  const port = server.audiencePort;
  const forwarded = (ip) => ({ 'x-forwarded-for': ip });
  const fromOnePhone = [];
  for (let i = 0; i < 4; i += 1) fromOnePhone.push(await sseFrom(port, '127.0.0.1', forwarded('127.0.0.9')));
  expect(fromOnePhone).toEqual([200, 200, 200, 200]);
  expect(await sseFrom(port, '127.0.0.1', forwarded('127.0.0.9'))).toBe(429);
  expect(await wsFrom(port, '127.0.0.1', forwarded('127.0.0.9'))).toBe('http 429');
  expect(await sseFrom(port, '127.0.0.1', forwarded('127.0.0.10'))).toBe(200);
  // A phone cannot claim another address: X-Forwarded-For from a non-proxy source is ignored.
  expect((await getFrom(port, '/healthz', '127.0.0.2', forwarded('127.0.0.10'))).status).toBe(200);
});

test('--max-clients cannot be filled by one address (it gets half), other addresses still join', async () => {
  const server = await startShow({ maxClients: 6, maxPerAddress: 16 });
  servers.push(server);
  const port = server.audiencePort;
  const attempts = [];
  for (let i = 0; i < 6; i += 1) attempts.push(await wsFrom(port, '127.0.0.2'));
  expect(attempts).toEqual(['open', 'open', 'open', 'http 503', 'http 503', 'http 503']);
  expect(await wsFrom(port, '127.0.0.3')).toBe('open');
  expect(await sseFrom(port, '127.0.0.4')).toBe(200);
});
