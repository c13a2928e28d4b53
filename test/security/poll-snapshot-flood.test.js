// Attack: GET /poll without `since` answers with the whole snapshot, so a phone asking 50 times a
// second tries the same amplification as a WebSocket resync flood. The per-address request limit
// (--rate-limit, default 20/s after a burst of 60) bounds it: beyond that the answer is a ~80-byte
// 429, counted in tutti_bad_input_total{source="rate"} (SECURITY.md). SSE reconnects go through
// the same limit. Run with --rate-limit 0 this test fails: the bound comes from that limit.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';

const BIG_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));

let server;
afterAll(() => server?.close());

test('/poll without since 50/s for 5 s from one address: snapshots bounded by the rate limit', async () => {
  server = await startShow({ scorePath: BIG_SCORE });
  const agent = new http.Agent({ keepAlive: true, localAddress: '127.0.0.2', maxSockets: 1 });
  const get = () => new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port: server.audiencePort, path: '/poll', agent }, (res) => {
      let bytes = 0;
      res.on('data', (d) => { bytes += d.length; });
      res.on('end', () => resolve({ status: res.statusCode, bytes }));
    }).on('error', (err) => resolve({ status: 0, bytes: 0, error: err.message }));
  });
  const results = [];
  for (let i = 0; i < 250; i += 1) {
    results.push(await get());
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  const snapshots = results.filter((r) => r.status === 200);
  const bytes = results.reduce((sum, r) => sum + r.bytes, 0);
  const seconds = 250 * 0.02;
  console.log(`poll snapshot flood: 250 requests → ${snapshots.length} snapshots, ${results.filter((r) => r.status === 429).length} × 429, ${bytes} bytes in total`);
  // Burst 60 plus 20/s over the run (the run takes a little longer than 5 s under load).
  expect(snapshots.length).toBeLessThanOrEqual(60 + 20 * (seconds + 2));
  expect(results.filter((r) => r.status === 429).length).toBeGreaterThan(50);
}, 30_000);
