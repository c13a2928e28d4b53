// Attacks on the control listener (127.0.0.1 only): DNS rebinding (a web page whose name now
// resolves to 127.0.0.1 sends its own Host), cross-site requests from a page in the composer's
// browser (a foreign Origin, or an <img> with Sec-Fetch-Site: cross-site), short tokens and
// token guessing (a 4-digit token fell at ~5,000 guesses/s). Real server, real sockets; the
// raw requests go through node:http so the Host header is exactly what an attacker sends.

import { request as httpRequest } from 'node:http';
import { startShowServer } from '../../local-server/src/server.js';
import { runCli } from '../../local-server/src/cli.js';
import { AUTH_FAILURE_LIMIT } from '../../local-server/src/guards/control-guard.js';

const token = 'control-listener-token-0123';
let server;
let port;

beforeAll(async () => {
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token });
  port = Number(new URL(server.controlUrl).port);
});
afterAll(() => server?.close());

/** A raw request to the control listener with exactly these headers. */
function raw(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON (the console page)
        }
        resolve({ status: res.statusCode, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = { authorization: `Bearer ${token}` };
const badInput = async (source) => {
  const text = await (await fetch(`${server.controlUrl}/metrics`, { headers: auth })).text();
  return Number(new RegExp(`tutti_bad_input_total\\{source="${source}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
};

test('dns-rebinding: a foreign Host is refused with 421 before anything else, even with the right token', async () => {
  const before = await badInput('control_host');
  for (const host of [
    `evil.example:${port}`,
    'evil.example',
    `127.0.0.1:${port + 1}`,
    `localhost.evil.example:${port}`,
    `127.0.0.2:${port}`,
  ]) {
    for (const path of ['/api/status', '/', '/console/main.js']) {
      const res = await raw(path, { host, ...auth });
      expect([host, path, res.status, res.body.error]).toEqual([host, path, 421, 'MISDIRECTED_HOST']);
    }
  }
  // No Host at all: Node's HTTP parser answers 400 before the request reaches the server.
  expect((await raw('/api/status', auth)).status).toBe(400);
  expect(await badInput('control_host')).toBe(before + 15);
  // The names the console and the desktop app use all work.
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
    expect([host, (await raw('/api/status', { host, ...auth })).status]).toEqual([host, 200]);
  }
  expect((await raw('/', { host: `127.0.0.1:${port}` })).status).toBe(200);
});

test("cross-site: a foreign Origin or Sec-Fetch-Site gets 403; the console's own origin is fine", async () => {
  const host = `127.0.0.1:${port}`;
  const before = await badInput('control_origin');
  const refused = [
    { origin: 'http://evil.example' },
    { origin: 'null' },
    { origin: `http://localhost:${port}` }, // another origin than the Host the request names
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
  ];
  for (const headers of refused) {
    const res = await raw('/api/transport', { host, ...auth, ...headers, 'content-type': 'application/json' }, 'POST');
    expect([headers, res.status, res.body.error]).toEqual([headers, 403, 'FOREIGN_ORIGIN']);
  }
  expect(await badInput('control_origin')).toBe(before + refused.length);
  expect(server.show.engine.status().transport).toBe('stopped');
  for (const headers of [{ origin: `http://${host}` }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}]) {
    expect([headers, (await raw('/api/status', { host, ...auth, ...headers })).status]).toEqual([headers, 200]);
  }
});

test('short-token: tutti serve refuses a --token shorter than 16 characters, with a clear message and a non-zero exit', async () => {
  for (const [argv, env] of [
    [['--token', '1234'], {}],
    [[], { TUTTI_TOKEN: 'fifteen-chars-x' }],
  ]) {
    const err = [];
    const result = await runCli(['serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', ...argv], {
      out: () => {},
      err: (s) => err.push(s),
      env,
    });
    if (typeof result === 'object') await result.server.close();
    expect(typeof result === 'object' ? 'the server started' : result).toBe(2);
    expect(err.join('\n')).toMatch(/--token is (4|15) characters; a control token must be at least 16/);
  }
});

test('token-guessing: after a burst, failed tokens are throttled to a few per second (429 + Retry-After, counted as auth)', async () => {
  const before = await badInput('auth');
  const started = Date.now();
  const statuses = { 401: 0, 429: 0 };
  let retryAfter = null;
  // Bounded: at most 3,000 guesses or 2.5 s, one at a time as a guessing script would.
  for (let i = 0; i < 3000 && Date.now() - started < 2500; i += 1) {
    const res = await raw('/api/status', { host: `127.0.0.1:${port}`, authorization: `Bearer ${String(i).padStart(4, '0')}` });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status === 429) {
      retryAfter ??= res.headers['retry-after'];
      expect(res.body.error).toBe('AUTH_THROTTLED');
    }
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `token guessing: ${statuses[401]} answered 401 and ${statuses[429]} refused 429 in ${seconds.toFixed(2)} s (${(statuses[401] / seconds).toFixed(1)} answers/s)`,
  );
  expect(Object.keys(statuses).sort()).toEqual(['401', '429']);
  expect(statuses[401]).toBeLessThanOrEqual(AUTH_FAILURE_LIMIT.burst + Math.ceil(AUTH_FAILURE_LIMIT.ratePerSecond * seconds) + 1);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  // Once the guessing stops, the right token works again after Retry-After.
  await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000 + 100));
  expect((await raw('/api/status', { host: `127.0.0.1:${port}`, ...auth })).status).toBe(200);
  expect(await badInput('auth')).toBe(before + statuses[401] + statuses[429]);
}, 20_000);
