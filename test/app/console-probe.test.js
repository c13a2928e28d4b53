// The console's latency probe is a WebSocket inside the server: it is not a viewer. With
// --max-clients 1 the first phone gets in while the probe runs, /api/status and /metrics count
// no clients before it, and a stranger cannot pass as the probe. Real server, real sockets.
import { startShow } from '../support/show.js';
import { openWs, waitFor } from '../support/clients.js';

let server;
const sockets = [];
beforeAll(async () => {
  server = await startShow({ token: 'probe-token', maxClients: 1 });
});
afterAll(async () => {
  sockets.forEach((s) => s.ws.terminate());
  await server?.close();
});

const auth = { authorization: 'Bearer probe-token' };
const api = async (path) => (await fetch(`${server.controlUrl}${path}`, { headers: auth })).json();

test('the probe takes no audience slot and is not counted', async () => {
  await api('/api/console'); // a console looks: the probe starts
  await waitFor(async () => (await api('/api/console')).stats.latency.probe.state === 'open', 8000, 'probe connected');
  expect((await api('/api/status')).clients).toEqual({ ws: 0, sse: 0, poll: 0, total: 0 });
  expect(await (await fetch(`${server.controlUrl}/metrics`, { headers: auth })).text()).not.toMatch(
    /tutti_clients\{transport="ws"\} [1-9]/,
  );

  const phone = await openWs(server.audienceUrl);
  sockets.push(phone);
  await waitFor(() => phone.tracker.seq !== null && phone.tracker.seq !== undefined, 3000, 'phone snapshot');
  expect((await api('/api/status')).clients.ws).toBe(1);
  expect((await api('/api/console')).viewers.local.total).toBe(1);

  // The cap is reached by the phone: the next one is turned away, the probe is still open.
  await expect(openWs(server.audienceUrl)).rejects.toThrow(/HTTP 503/);
  expect((await api('/api/console')).stats.latency.probe.state).toBe('open');
});

test('a wrong probe secret is an ordinary viewer (and is turned away when full)', async () => {
  expect((await api('/api/status')).clients.ws).toBe(1); // the phone of the test above
  await expect(openWs(server.audienceUrl, { headers: { 'x-tutti-probe': 'guess' } })).rejects.toThrow(/HTTP 503/);
});
