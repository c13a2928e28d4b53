// Control API (docs/reference/control-api.md#endpoints table) on a real server: token checks, transport, tempo,
// score loading with a new epoch, malformed bodies, metrics.
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../../local-server/src/server.js';
import { openWs, waitFor } from '../../support/clients.js';

const token = 'control-test-token';
let server;
beforeAll(async () => {
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token });
});
afterAll(() => server.close());

const api = (path, body, auth = `Bearer ${token}`) =>
  fetch(`${server.controlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(auth ? { authorization: auth } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

test('no token or a wrong one → 401 on every route', async () => {
  for (const path of ['/api/status', '/metrics', '/api/transport']) {
    for (const auth of [null, 'Bearer nope', `Bearer ${token}x`, `Basic ${token}`, token]) {
      const res = await api(path, path === '/api/transport' ? { action: 'play' } : undefined, auth);
      expect(res.status).toBe(401);
    }
  }
  expect(server.show.engine.status().transport).toBe('stopped');
});

test('status has the contract fields', async () => {
  const body = await (await api('/api/status')).json();
  expect(body).toMatchObject({ transport: 'stopped', tempo: expect.any(Number), epoch: expect.any(String), seq: expect.any(Number) });
  expect(body.position).toMatchObject({ bar: 1, beat: 1 });
  expect(body.clients).toEqual({ ws: 0, sse: 0, poll: 0, total: 0 });
  expect(body.edge).toEqual({ enabled: false });
});

test('transport play / pause / seek / stop and tempo change what viewers see', async () => {
  const viewer = await openWs(server.audienceUrl);
  let res = await api('/api/transport', { action: 'play' });
  expect(res.status).toBe(200);
  expect((await res.json()).transport).toBe('playing');
  await waitFor(() => viewer.tracker.state?.transport === 'playing');
  expect((await (await api('/api/status')).json()).clients.ws).toBe(1);

  res = await api('/api/transport', { action: 'seek', bar: 10, beat: 2 });
  expect((await res.json()).position).toMatchObject({ bar: 10, beat: 2 });
  await waitFor(() => viewer.tracker.state?.position.bar >= 10);

  res = await api('/api/tempo', { bpm: 150 });
  expect((await res.json()).tempo).toBe(150);
  await waitFor(() => viewer.tracker.state?.tempo === 150);

  res = await api('/api/transport', { action: 'pause' });
  expect((await res.json()).transport).toBe('paused');
  res = await api('/api/transport', { action: 'stop' });
  expect(await res.json()).toMatchObject({ transport: 'stopped', position: { bar: 1, beat: 1 } });
  await waitFor(() => viewer.tracker.state?.transport === 'stopped');
  expect(viewer.tracker.gaps).toBe(0);
  viewer.ws.close();
});

test.each([
  ['not JSON', '{"action":', 400],
  ['unknown action', { action: 'rewind' }, 400],
  ['extra field', { action: 'play', foo: 1 }, 400],
  ['seek without bar', { action: 'seek' }, 400],
  ['seek past the end', { action: 'seek', bar: 100000 }, 400],
  ['beat outside the bar', { action: 'seek', bar: 2, beat: 99 }, 400],
  ['array body', [1, 2], 400],
])('transport body: %s → %s with a JSON error', async (_name, body, status) => {
  const res = await api('/api/transport', body);
  expect(res.status).toBe(status);
  const json = await res.json();
  expect(typeof json.error).toBe('string');
  expect(typeof json.message).toBe('string');
});

test('tempo out of range → 400; the server keeps running', async () => {
  for (const bpm of [0, 5, 10000, 'fast']) expect((await api('/api/tempo', { bpm })).status).toBe(400);
  expect((await api('/api/status')).status).toBe(200);
});

test('loading a score starts a new epoch; viewers get its snapshot; a bad score is a 400 with the list', async () => {
  const viewer = await openWs(server.audienceUrl);
  await waitFor(() => viewer.tracker.state);
  const oldEpoch = viewer.tracker.epoch;
  const demo = fileURLToPath(new URL('../../../scores/demo.score.json', import.meta.url));
  const res = await api('/api/score', { path: demo });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.epoch).not.toBe(oldEpoch);
  expect(body.seq).toBe(0);
  await waitFor(() => viewer.tracker.epoch === body.epoch, 3000, 'new epoch snapshot');
  expect(viewer.tracker.envelopes.at(-1)).toMatchObject({ type: 'snapshot', seq: 0 });

  const broken = await api('/api/score', { path: '/definitely/not/here.score.json' });
  expect(broken.status).toBe(400);
  const err = await broken.json();
  expect(err.error).toBe('INVALID_SCORE');
  expect(err.problems.length).toBeGreaterThan(0);
  expect(err.problems[0]).toHaveProperty('path');
  expect((await (await api('/api/status')).json()).epoch).toBe(body.epoch);
  viewer.ws.close();
});

test('/metrics is Prometheus text with the documented names', async () => {
  const res = await api('/metrics');
  expect(res.headers.get('content-type')).toMatch(/text\/plain/);
  const text = await res.text();
  for (const name of [
    'tutti_clients',
    'tutti_messages_sent_total',
    'tutti_bytes_sent_total',
    'tutti_fanout_duration_seconds_bucket',
    'tutti_frames_dropped_total',
    'tutti_resyncs_total',
    'tutti_bad_input_total',
    'tutti_state_seq',
  ]) {
    expect(text).toContain(name);
  }
  expect(text).toMatch(/tutti_bad_input_total\{source="auth"\} [1-9]/);
  expect(text).toMatch(/tutti_bad_input_total\{source="http_body"\} [1-9]/);
});

test('a JSON body is read whatever its Content-Type (curl -d, fetch with a string); the scheme name is case-insensitive', async () => {
  const post = (path, body, headers) =>
    fetch(`${server.controlUrl}${path}`, { method: 'POST', headers: { authorization: `bearer ${token}`, ...headers }, body });
  // fetch with a string body sends text/plain; curl -d sends application/x-www-form-urlencoded.
  let res = await post('/api/tempo', JSON.stringify({ bpm: 97 }));
  expect(res.status).toBe(200);
  expect((await res.json()).tempo).toBe(97);
  res = await post('/api/tempo', '{"bpm":98}', { 'content-type': 'application/x-www-form-urlencoded' });
  expect((await res.json()).tempo).toBe(98);
  // Still strict about what the body says: bad JSON and no body are 400s with a JSON error.
  res = await post('/api/tempo', 'bpm=99', { 'content-type': 'application/x-www-form-urlencoded' });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: 'BAD_JSON', message: expect.stringMatching(/not valid JSON/) });
  res = await post('/api/tempo', '');
  expect(res.status).toBe(400);
  await api('/api/tempo', { bpm: null });
});
