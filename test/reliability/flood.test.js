// One address flooding the audience listener gets 429s; another address is served normally.
// Traffic comes from 127.0.0.2 and 127.0.0.3 (loopback, like everything here; 127.0.0.1 itself
// is exempt from the limit so load tests measure the server).
import http from 'node:http';
import { startShowServer } from '../../local-server/src/server.js';

function get(url, localAddress, agent) {
  return new Promise((resolve) => {
    const req = http.get(url, { localAddress, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
  });
}

test('a flood from one address cannot starve the others', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 't', autoplay: true });
  try {
    const url = `${server.audienceUrl}/time`;
    const floodAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const flood = Promise.all(Array.from({ length: 3000 }, () => get(url, '127.0.0.2', floodAgent)));
    // A well-behaved phone polling twice a second during the flood.
    const phone = [];
    for (let i = 0; i < 8; i += 1) {
      const started = performance.now();
      phone.push({ status: await get(`${server.audienceUrl}/poll`, '127.0.0.3'), ms: performance.now() - started });
      await new Promise((r) => setTimeout(r, 100));
    }
    const statuses = await flood;
    floodAgent.destroy();
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(2000);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(60); // its burst
    expect(phone.every((p) => p.status === 200)).toBe(true);
    const metrics = await server.metrics.registry.getSingleMetricAsString('tutti_bad_input_total');
    expect(metrics).toMatch(/source="rate"\} [1-9]/);
    // Loopback itself is not limited (QA load tests run from here).
    const local = await Promise.all(Array.from({ length: 200 }, () => get(url, '127.0.0.1')));
    expect(local.every((s) => s === 200)).toBe(true);
  } finally {
    await server.close();
  }
});
