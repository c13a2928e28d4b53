// Attack: GET /poll without `since` answers with the whole snapshot, so a phone asking in a tight
// loop tries the same amplification as a WebSocket resync flood. The per-address request limit
// (--rate-limit, default 20/s after a burst of 60) bounds it: beyond that the answer is a ~80-byte
// 429, counted in tutti_bad_input_total{source="rate"} (docs/explanation/threat-model.md). SSE reconnects go through
// the same limit. Run with --rate-limit 0 this test fails: the bound comes from that limit.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';

const BIG_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));

let server;
afterAll(() => server?.close());

test('/poll without since, 250 times as fast as one keep-alive socket allows: snapshots bounded by the rate limit', async () => {
  server = await startShow({ scorePath: BIG_SCORE });
  const agent = new http.Agent({ keepAlive: true, localAddress: '127.0.0.2', maxSockets: 1 });
  const get = () =>
    new Promise((resolve) => {
      http
        .get({ host: '127.0.0.1', port: server.audiencePort, path: '/poll', agent }, (res) => {
          let bytes = 0;
          res.on('data', (d) => {
            bytes += d.length;
          });
          res.on('end', () => resolve({ status: res.statusCode, bytes }));
        })
        .on('error', (err) => resolve({ status: 0, bytes: 0, error: err.message }));
    });
  const results = [];
  const started = performance.now();
  for (let i = 0; i < 250; i += 1) results.push(await get());
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const snapshots = results.filter((r) => r.status === 200);
  const bytes = results.reduce((sum, r) => sum + r.bytes, 0);
  const bound = 60 + Math.ceil(20 * seconds);
  console.log(
    `poll snapshot flood: 250 requests in ${seconds.toFixed(2)} s → ${snapshots.length} snapshots (bound ${bound}), ${results.filter((r) => r.status === 429).length} × 429, ${bytes} bytes in total`,
  );
  expect(bound).toBeLessThan(250); // otherwise this run was too slow to tell a limit from none
  // Burst 60 plus 20 a second over the run.
  expect(snapshots.length).toBeLessThanOrEqual(bound);
  expect(results.filter((r) => r.status === 429).length).toBe(250 - snapshots.length);
}, 30_000);
