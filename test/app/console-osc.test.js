// The console's OSC panel API (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver) on a real show
// server over real UDP: each target's mode and offset (set when added, changed in place, checked),
// what the host saves, the test ping with the round trip of a target that echoes it, and the
// count-in's clicks going out through the show's one OSC sender, plain and on the beat grid.
import dgram from 'node:dgram';
import { Message, encode, decode } from 'node-osc';
import { startShowServer } from '../../local-server/src/server.js';
import { createLog } from '../../local-server/src/logs/log.js';
import { waitFor } from '../support/clients.js';
import { arrivalReceiver, wallClock } from '../support/osc-receivers.js';

const TOKEN = 'console-osc-token';
let server;
/** @type {Array<Record<string, unknown>>} what the console asked the host to save */
const saved = [];

beforeAll(async () => {
  server = await startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: TOKEN,
    log: createLog(),
    stateFile: null,
    now: wallClock,
    consoleHost: { mode: 'serve', onChange: (change) => saved.push(change) },
  });
});
afterAll(async () => {
  await server?.close();
});

async function call(method, path, body) {
  const res = await fetch(`${server.controlUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const row = (osc, port) => osc.targets.find((t) => t.port === port);

test('a target is added with a mode, changed in place (counters kept), and bad values are refused with the reason', async () => {
  const receiver = await arrivalReceiver();
  try {
    const added = await call('POST', '/api/osc/targets', { host: '127.0.0.1', port: receiver.port, mode: 'ahead' });
    expect(row(added.body, receiver.port)).toMatchObject({ mode: 'ahead', offsetMs: 0, sent: 0, errors: 0, rtt: null });
    expect(saved.at(-1)).toEqual({ oscTargets: [{ host: '127.0.0.1', port: receiver.port, mode: 'ahead' }] });

    server.show.engine.setTempo(240);
    server.show.engine.play();
    await waitFor(() => receiver.received.filter((r) => r.address === '/tutti/beat').length >= 2, 5000, 'beats');
    expect(receiver.received.find((r) => r.address === '/tutti/beat').bundled).toBe(true);

    const changed = await call('PATCH', '/api/osc/targets', { host: '127.0.0.1', port: receiver.port, mode: 'plain', offsetMs: -20 });
    expect(changed.status).toBe(200);
    const target = row(changed.body, receiver.port);
    expect(target).toMatchObject({ mode: 'plain', offsetMs: -20 });
    expect(target.sent).toBeGreaterThan(0);
    expect(saved.at(-1)).toEqual({ oscTargets: [{ host: '127.0.0.1', port: receiver.port, offsetMs: -20 }] });
    const from = receiver.received.length;
    await waitFor(() => receiver.received.slice(from).filter((r) => r.address === '/tutti/beat').length >= 2, 5000, 'plain beats');
    expect(
      receiver.received
        .slice(from)
        .filter((r) => r.address === '/tutti/beat')
        .every((r) => !r.bundled),
    ).toBe(true);

    for (const [body, status] of [
      [{ host: '127.0.0.1', port: receiver.port, offsetMs: 400 }, 400],
      [{ host: '127.0.0.1', port: receiver.port, mode: 'later' }, 400],
      [{ host: '127.0.0.1', port: receiver.port, offsetMs: '5' }, 400],
      [{ host: '127.0.0.1', port: 1, offsetMs: 5 }, 404],
    ]) {
      const refused = await call('PATCH', '/api/osc/targets', body);
      expect(refused.status).toBe(status);
      expect(typeof refused.body.message).toBe('string');
    }
    expect(row(server.status().osc, receiver.port)).toMatchObject({ mode: 'plain', offsetMs: -20 });
  } finally {
    server.show.engine.stop();
    await call('DELETE', '/api/osc/targets', { host: '127.0.0.1', port: receiver.port });
    receiver.close();
  }
});

test('the test ping: sent to a silent target (no round trip); a target that echoes /tutti/ping shows its round trip', async () => {
  const echo = dgram.createSocket('udp4');
  await new Promise((r) => echo.bind(0, '127.0.0.1', r));
  let echoes = 0;
  let senderPort = 0;
  echo.on('message', (bytes, rinfo) => {
    const message = decode(bytes);
    if (message.address !== '/tutti/ping') return;
    echoes += 1;
    senderPort = rinfo.port;
    echo.send(encode(new Message('/tutti/ping', message.args[0].value)), rinfo.port, rinfo.address);
  });
  const silent = await arrivalReceiver();
  const { port } = echo.address();
  try {
    await call('POST', '/api/osc/targets', { host: '127.0.0.1', port });
    await call('POST', '/api/osc/targets', { host: '127.0.0.1', port: silent.port });
    const quiet = await call('POST', '/api/osc/ping', { host: '127.0.0.1', port: silent.port });
    expect(quiet.body).toMatchObject({ ok: true, rttMs: null, error: null });
    expect(silent.received.map((r) => r.address)).toContain('/tutti/ping');
    const answered = await call('POST', '/api/osc/ping', { host: '127.0.0.1', port });
    expect(answered.body.ok).toBe(true);
    expect(echoes).toBe(1);
    expect(answered.body.rttMs).toBeGreaterThan(0);
    expect(answered.body.rttMs).toBeLessThan(500);
    // The panel's rows carry it from then on (the console's snapshot and its once-a-second update).
    const snapshot = await fetch(`${server.controlUrl}/api/console`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) =>
      r.json(),
    );
    expect(row(snapshot.osc, port).rtt).toEqual({ ms: answered.body.rttMs, at: expect.any(Number) });
    expect(row(snapshot.osc, silent.port).rtt).toBeNull();
    // Anything else reaching the sender's socket is counted and changes nothing: junk, a ping with
    // a number nobody sent, an oversized packet.
    const strays = async () =>
      Number(/source="osc_reply"\} (\d+)/.exec(await server.metrics.registry.getSingleMetricAsString('tutti_bad_input_total'))?.[1] ?? 0);
    const before = await strays();
    for (const junk of [Buffer.from('junk'), encode(new Message('/tutti/ping', 7)), Buffer.alloc(2000, 1)])
      echo.send(junk, senderPort, '127.0.0.1');
    await waitFor(async () => (await strays()) === before + 3, 3000, 'three strays counted');
    expect(row(server.status().osc, port).rtt.ms).toBe(answered.body.rttMs);
  } finally {
    await call('DELETE', '/api/osc/targets', { host: '127.0.0.1', port });
    await call('DELETE', '/api/osc/targets', { host: '127.0.0.1', port: silent.port });
    echo.close();
    silent.close();
  }
});

test('count-in clicks go through the show sender: plain messages on the beat grid, the first beat one beat after the last click', async () => {
  const receiver = await arrivalReceiver();
  try {
    await call('POST', '/api/osc/targets', { host: '127.0.0.1', port: receiver.port });
    server.show.engine.stop();
    server.show.engine.setTempo(240);
    expect((await call('POST', '/api/console/count-in', { beats: 3 })).status).toBe(200);
    await waitFor(() => receiver.received.some((r) => r.address === '/tutti/beat'), 5000, 'the first beat after the count-in');
    const clicks = receiver.received.filter((r) => r.address === '/tutti/countin');
    expect(clicks.map((c) => c.args)).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(clicks.every((c) => !c.bundled)).toBe(true);
    const firstBeat = receiver.received.find((r) => r.address === '/tutti/beat');
    const times = [...clicks.map((c) => c.at), firstBeat.at];
    // 250 ms apart at 240 bpm; the margin is for a loaded machine waking this process late.
    for (let i = 1; i < times.length; i += 1) expect(Math.abs(times[i] - times[i - 1] - 250)).toBeLessThan(15);
  } finally {
    server.show.engine.stop();
    await call('DELETE', '/api/osc/targets', { host: '127.0.0.1', port: receiver.port });
    receiver.close();
  }
});

test('the desktop app saves each target with its mode and offset (defaults left out); a bad saved one is dropped, not fatal', async () => {
  const { sanitizeSettings, applySettingsChange, defaultSettings } = await import('../../app/main/settings-store.js');
  const next = applySettingsChange(defaultSettings(), {
    oscTargets: [
      { host: 'a', port: 1, mode: 'ahead', offsetMs: -20 },
      { host: 'b', port: 2, mode: 'plain', offsetMs: 0 },
    ],
  });
  expect(next.oscTargets).toEqual([
    { host: 'a', port: 1, mode: 'ahead', offsetMs: -20 },
    { host: 'b', port: 2 },
  ]);
  expect(sanitizeSettings(JSON.parse(JSON.stringify(next))).settings.oscTargets).toEqual(next.oscTargets);
  const bad = sanitizeSettings({ oscTargets: [{ host: 'a', port: 1, offsetMs: 900 }] });
  expect(bad).toMatchObject({ settings: { oscTargets: [] }, dropped: ['oscTargets'] });
});
