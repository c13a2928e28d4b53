// The console's API (local-server/src/console/console-api.js) on a real show server: the
// snapshot, the authenticated live feed, score checks, OSC targets, the edge switch, count-in,
// and JSON errors with a code for every bad request. Real sockets; nothing faked.

import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../local-server/src/server.js';
import { openWs, waitFor } from '../support/clients.js';

const TOKEN = 'api-test-token';
const score = (name) => fileURLToPath(new URL(`../../scores/${name}`, import.meta.url));
let server;

beforeAll(async () => {
  server = await startShowServer({ scorePath: score('demo.score.json'), host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
});
afterAll(async () => {
  await server?.close();
});

async function call(method, path, body, token = TOKEN) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.controlUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Read the SSE feed until `until(events)` is true. */
async function readFeed(until, ms = 8000) {
  const controller = new AbortController();
  const res = await fetch(`${server.controlUrl}/api/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const events = [];
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + ms;
  let buffer = '';
  try {
    while (!until(events)) {
      if (Date.now() > deadline) throw new Error(`feed: timed out; got ${events.map((e) => e.event).join(',')}`);
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  } finally {
    controller.abort();
  }
  return events;
}

test('every console route needs the token', async () => {
  for (const [method, path] of [
    ['GET', '/api/console'],
    ['GET', '/api/events'],
    ['GET', '/api/log'],
    ['POST', '/api/score/validate'],
    ['POST', '/api/osc/targets'],
    ['POST', '/api/edge'],
    ['DELETE', '/api/edge'],
    ['POST', '/api/edge/resume'],
    ['POST', '/api/console/count-in'],
  ]) {
    const res = await call(method, path, method === 'POST' ? {} : undefined, 'wrong');
    expect([path, res.status, res.body.error]).toEqual([path, 401, 'UNAUTHORIZED']);
  }
});

test('bad bodies get 400 with a code and a message; nothing crashes', async () => {
  const cases = [
    ['POST', '/api/score/validate', {}],
    ['POST', '/api/score/validate', { path: 'x', extra: 1 }],
    ['POST', '/api/osc/targets', { host: 'a b', port: 9000 }],
    ['POST', '/api/osc/targets', { host: 'h', port: 70000 }],
    ['POST', '/api/osc/ping', { host: 'h' }],
    ['POST', '/api/edge', { url: 'http://x' }],
    ['POST', '/api/console/count-in', { beats: 0 }],
    ['POST', '/api/osc/targets', '{"host": '],
  ];
  for (const [method, path, body] of cases) {
    const res = await call(method, path, body);
    expect([path, res.status]).toEqual([path, 400]);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.message.length).toBeGreaterThan(5);
  }
  expect((await call('POST', '/api/edge', { url: 'ftp://edge', token: 't' })).body.error).toBe('BAD_EDGE_URL');
  expect((await call('DELETE', '/api/osc/targets', { host: '127.0.0.1', port: 1 })).body.error).toBe('NO_SUCH_TARGET');
  expect((await call('GET', '/api/status')).status).toBe(200);
});

test('/api/console: score, sections, audience URL with QR code, OSC, edge, stats', async () => {
  const { status, body } = await call('GET', '/api/console');
  expect(status).toBe(200);
  expect(body.score).toMatchObject({ id: 'demo', bars: 48, totalBeats: 192 });
  expect(body.score.sections.map((s) => s.mark)).toEqual(['A', 'B', 'C', 'Coda']);
  expect(body.score.sections[1]).toMatchObject({ bar: 17, beat: 1, atMs: 40000 });
  expect(body.audience.qrSvg).toMatch(/^<svg/);
  expect(body.audience.url).toBe(`${server.audienceUrl}/`); // bound to 127.0.0.1: no LAN promise
  expect(body.stats.latency.label).toBe('server-side push latency');
  expect(body.edge).toMatchObject({ enabled: false, maxClients: null });
  expect(body.mode).toBe('serve');
});

test('score check: every problem with its path, nothing loaded; a good score summarised', async () => {
  const bad = await call('POST', '/api/score/validate', { path: score('broken/five-problems.score.json') });
  expect(bad.status).toBe(200);
  expect(bad.body.ok).toBe(false);
  expect(bad.body.problems).toHaveLength(5);
  expect(bad.body.problems.every((p) => typeof p.path === 'string' && typeof p.message === 'string')).toBe(true);
  expect(server.status().score.id).toBe('demo');
  expect((await call('GET', '/api/console')).body.lastAttempt).toMatchObject({ ok: false });
  const good = await call('POST', '/api/score/validate', { path: score('tidal-lines.score.json') });
  expect(good.body).toMatchObject({ ok: true, problems: [], score: { id: 'tidal-lines', sections: expect.any(Array) } });
  expect(good.body.file).toBe(score('tidal-lines.score.json'));
});

test('the live feed: hello, beats while playing, stats with viewers (the probe not counted) and latency', async () => {
  const viewer = await openWs(server.audienceUrl);
  server.show.engine.play();
  try {
    const events = await readFeed(
      (ev) =>
        ev.filter((e) => e.event === 'beat').length >= 2 &&
        ev.some((e) => e.event === 'stats' && e.data.stats.latency.samples > 0 && e.data.viewers.total === 1),
      10_000,
    );
    expect(events[0].event).toBe('hello');
    const beat = events.find((e) => e.event === 'beat').data;
    expect(beat).toMatchObject({ bar: expect.any(Number), beat: expect.any(Number), at: expect.any(Number), s: expect.any(Number) });
    expect(beat.at).toBeGreaterThan(beat.s - 50); // published ahead of (or at) the time it sounds
    const stats = events.filter((e) => e.event === 'stats').at(-1).data;
    expect(stats.viewers.local).toMatchObject({ ws: 1, total: 1 }); // the probe is not a viewer
    expect(server.show.hub.counts().ws).toBe(1); // nor in the hub's counts (/api/status, --max-clients)
    expect(stats.stats.latency.p50).toBeGreaterThanOrEqual(0);
    expect(stats.stats.latency.p99).toBeGreaterThanOrEqual(stats.stats.latency.p50);
    expect(stats.stats.history.length).toBeGreaterThan(0);
  } finally {
    server.show.engine.stop();
    viewer.ws.close();
  }
});

test('count-in: refused while playing, then plays after one bar; cancellable', async () => {
  server.show.engine.play();
  expect((await call('POST', '/api/console/count-in', {})).status).toBe(409);
  server.show.engine.stop();
  const started = await call('POST', '/api/console/count-in', { beats: 2 });
  expect(started.status).toBe(200);
  expect(started.body.countIn).toMatchObject({ beats: 2 });
  expect(server.status().transport).toBe('stopped');
  expect((await call('POST', '/api/console/count-in', {})).body.error).toBe('COUNTING_IN');
  await waitFor(() => server.status().transport === 'playing', 5000, 'playing after the count-in');
  server.show.engine.stop();
  await call('POST', '/api/console/count-in', { beats: 4 });
  expect((await call('DELETE', '/api/console/count-in')).body.countIn).toBeNull();
  await new Promise((r) => setTimeout(r, 3000)); // 4 beats at 96 bpm would be 2.5 s
  expect(server.status().transport).toBe('stopped');
});

test('OSC targets and the edge switch', async () => {
  const added = await call('POST', '/api/osc/targets', { host: '::1', port: 9001 });
  expect(added.body.targets.map((t) => `${t.host}:${t.port}`)).toContain('::1:9001');
  const ping = await call('POST', '/api/osc/ping', { host: '::1', port: 9001 });
  expect(ping.body).toMatchObject({ ok: true, error: null });
  expect((await call('DELETE', '/api/osc/targets', { host: '::1', port: 9001 })).body.targets).toEqual([]);

  const on = await call('POST', '/api/edge', { url: 'http://127.0.0.1:9/', token: 'edge-secret-token' });
  expect(on.status).toBe(200);
  expect(on.body).toMatchObject({ enabled: true, publicUrl: 'http://127.0.0.1:9', state: 'connecting' });
  // Not replaced: resume changes nothing (test/edge/two-venues.test.js covers a real takeover).
  expect((await call('POST', '/api/edge/resume')).body).toMatchObject({ enabled: true, state: 'connecting' });
  const off = await call('DELETE', '/api/edge');
  expect(off.body.enabled).toBe(false);
  expect((await call('POST', '/api/edge/resume')).status).toBe(409);
  const log = await call('GET', '/api/log');
  expect(log.body.entries.some((e) => e.msg.includes('edge mirror on'))).toBe(true);
  expect(JSON.stringify(log.body)).not.toContain('edge-secret-token');
});

test('transport and tempo actions are in the console log, with the source and where the show is', async () => {
  await call('POST', '/api/transport', { action: 'play' });
  await call('POST', '/api/transport', { action: 'pause' });
  await call('POST', '/api/transport', { action: 'seek', bar: 9, beat: 2 });
  await call('POST', '/api/tempo', { bpm: 120 });
  await call('POST', '/api/tempo', { bpm: null });
  const lines = (await call('GET', '/api/log')).body.entries.map((e) => e.msg);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^transport: play → playing at bar \d+ beat \d+ \(control API\)$/),
      expect.stringMatching(/^transport: pause → paused at bar \d+ beat \d+ \(control API\)$/),
      'transport: seek to bar 9 beat 2 → paused at bar 9 beat 2 (control API)',
      'tempo: 120 bpm → 120 bpm now (control API)',
      expect.stringMatching(/^tempo: back to the written tempo → \d+(\.\d+)? bpm now \(control API\)$/),
    ]),
  );
});
