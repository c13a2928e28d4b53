// A crowd arriving at once, and a musician's device that drops off the network and returns.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Server } from 'node-osc';
import { startShowServer } from '../../local-server/src/server.js';
import { waitFor } from '../support/clients.js';

const artifacts = fileURLToPath(new URL('../../artifacts/reliability/', import.meta.url));

test('2,000 viewers joining within 2 s: no errors, every one gets the state; join-to-first-state p99 reported', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 't', autoplay: true });
  const url = `${server.audienceUrl.replace('http', 'ws')}/ws`;
  const sockets = [];
  const joins = [];
  let errors = 0;
  try {
    const started = performance.now();
    for (let i = 0; i < 2000; i += 1) {
      const t0 = performance.now();
      const ws = new WebSocket(url, { perMessageDeflate: false });
      sockets.push(ws);
      ws.once('message', (data) => {
        const env = JSON.parse(data.toString());
        if (env.type === 'snapshot') joins.push(performance.now() - t0);
        else errors += 1;
      });
      ws.on('error', () => {
        errors += 1;
      });
      // Arrivals on a schedule: 100 every 75 ms (~1.5 s in all), however long creating them takes.
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, Math.max(0, started + ((i + 1) / 100) * 75 - performance.now())));
    }
    const spread = performance.now() - started;
    await waitFor(() => joins.length + errors >= 2000, 20000, 'every viewer to get its first state');
    const sorted = [...joins].sort((a, b) => a - b);
    const pct = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const report = {
      viewers: 2000,
      arrivalSpreadMs: Math.round(spread),
      errors,
      joinToFirstStateMs: { p50: pct(0.5), p99: pct(0.99), max: sorted.at(-1) },
    };
    await mkdir(artifacts, { recursive: true });
    await writeFile(`${artifacts}burst.json`, JSON.stringify(report, null, 2));
    process.stdout.write(`burst: ${JSON.stringify(report)}\n`);
    expect(spread).toBeLessThan(2000);
    expect(errors).toBe(0);
    expect(joins).toHaveLength(2000);
    expect(server.show.hub.counts().ws).toBe(2000);
  } finally {
    sockets.forEach((ws) => ws.terminate());
    await server.close();
  }
}, 60_000);

test('an OSC target that vanishes and returns is found again without re-registering', async () => {
  const listen = (port) =>
    new Promise((resolve) => {
      const received = [];
      const s = new Server(port, '127.0.0.1', () => resolve({ s, received, port: s.port }));
      s.on('message', (m) => received.push(m[0])); // beats are plain messages by default (docs/reference/osc.md#address-space)
    });
  let device = await listen(0);
  const port = device.port;
  const server = await startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    autoplay: true,
    oscTargets: [{ host: '127.0.0.1', port }],
  });
  try {
    server.show.engine.setTempo(240);
    await waitFor(() => device.received.filter((a) => a === '/tutti/beat').length >= 2, 5000, 'beats before the drop');
    await new Promise((r) => device.s.close(r)); // the device leaves the network
    await new Promise((r) => setTimeout(r, 1200)); // beats sent meanwhile hit a closed port
    const errors = await server.metrics.registry.getSingleMetricAsString('tutti_osc_send_errors_total');
    device = await listen(port); // and comes back on the same address
    await waitFor(() => device.received.filter((a) => a === '/tutti/beat').length >= 2, 5000, 'beats after the return');
    expect(server.status().osc.targets).toHaveLength(1);
    expect(errors).toMatch(/tutti_osc_send_errors_total \d+/);
  } finally {
    await server.close();
    device.s.close();
  }
});
