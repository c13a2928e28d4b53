// Attack: a phone in the hall (it has the audience URL, not the musicians' key) tries to reach
// the musicians' part pages by guessing /part/<key>/ (docs/explanation/threat-model.md#musicians-part-pages).
// Every guess is 403 PART_KEY and counted; the per-address request limit (20/s after a burst of
// 60) bounds the guessing rate, so 60 bits of key are out of reach; a musician on another address
// is served meanwhile. From 127.0.0.2 (not exempt from the limits, like any phone).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { startShow } from '../support/show.js';

let server;
afterAll(() => server?.close());

const metric = async (source) => {
  const res = await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${server.token}` } });
  const m = new RegExp(`tutti_bad_input_total\\{source="${source}"\\} (\\d+)`).exec(await res.text());
  return m ? Number(m[1]) : 0;
};

test('300 guessed keys from one address: all refused, counted, throttled to the request limit; the real key still works from another address', async () => {
  server = await startShow({ autoplay: false });
  const agent = new http.Agent({ keepAlive: true, localAddress: '127.0.0.2', maxSockets: 1 });
  const guess = () =>
    new Promise((resolve) => {
      const key = randomBytes(8).toString('base64url').slice(0, 10);
      http
        .get({ host: '127.0.0.1', port: server.audiencePort, path: `/part/${key}/parts.json`, agent }, (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode, body }));
        })
        .on('error', (err) => resolve({ status: 0, body: err.message }));
    });
  const results = [];
  const started = performance.now();
  for (let i = 0; i < 300; i += 1) results.push(await guess());
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const refused = results.filter((r) => r.status === 403);
  const throttled = results.filter((r) => r.status === 429);
  const bound = 60 + Math.ceil(20 * seconds);
  console.log(
    `part key guessing: 300 guesses in ${seconds.toFixed(2)} s → ${refused.length} × 403 PART_KEY (bound ${bound}), ${throttled.length} × 429`,
  );
  expect(refused.length + throttled.length).toBe(300); // not one guess reached the cue table
  expect(refused.every((r) => JSON.parse(r.body).error === 'PART_KEY')).toBe(true);
  expect(bound).toBeLessThan(300);
  expect(refused.length).toBeLessThanOrEqual(bound);
  expect(await metric('part_key')).toBe(refused.length);
  expect(await metric('rate')).toBe(throttled.length);
  // A musician's tablet on another address is served at once.
  const tablet = await new Promise((resolve) => {
    http.get(
      { host: '127.0.0.1', port: server.audiencePort, path: `/part/${server.partKey}/parts.json`, localAddress: '127.0.0.3' },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
  });
  expect(tablet).toBe(200);
}, 30_000);
