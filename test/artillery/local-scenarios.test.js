// Every local-* scenario, briefly, through the real `artillery run` against a real show server
// playing the load-test score. The runs go in parallel: each is a separate Artillery process.

import { startLoadShow, scratch, runBriefly, expectHealthyViewers } from './helpers.js';

let show;
let tmp;
const outcomes = {};

beforeAll(async () => {
  show = await startLoadShow();
  tmp = scratch();
  const ws = show.audienceUrl.replace(/^http/, 'ws') + '/ws';
  const [localWs, localSse, localPoll, pageload, strict, dead] = await Promise.all([
    runBriefly({ file: 'local-ws.yml', target: ws, dir: tmp.dir, users: 4 }),
    runBriefly({ file: 'local-sse.yml', target: show.audienceUrl, dir: tmp.dir, users: 4 }),
    runBriefly({ file: 'local-poll.yml', target: show.audienceUrl, dir: tmp.dir, users: 4 }),
    runBriefly({ file: 'local-pageload.yml', target: show.audienceUrl, dir: tmp.dir, phases: [{ duration: 1, arrivalCount: 6 }] }),
    // A threshold no run can meet: the run must exit non-zero.
    runBriefly({
      file: 'local-ws.yml',
      target: ws,
      dir: tmp.dir,
      users: 2,
      hold: 1,
      overrides: { config: { plugins: { ensure: { thresholds: [{ 'tutti.push_latency_ms.p99': 0 }] } } } },
    }),
    // Nothing listening: every viewer fails, so maxErrorRate (and the metric checks) fail.
    runBriefly({ file: 'local-sse.yml', target: 'http://127.0.0.1:9', dir: tmp.dir, users: 2, hold: 1 }),
  ]);
  Object.assign(outcomes, { localWs, localSse, localPoll, pageload, strict, dead });
}, 90_000);

afterAll(async () => {
  await show?.close();
  tmp?.remove();
});

test('local-ws: WebSocket viewers record push latency, messages and no resyncs', () => {
  expectHealthyViewers(outcomes.localWs, 4);
});

test('local-sse: SSE viewers record push latency, messages and no resyncs', () => {
  expectHealthyViewers(outcomes.localSse, 4);
});

test('local-poll: pollers record latency of polled envelopes and every poll is a 200', () => {
  expectHealthyViewers(outcomes.localPoll, 4);
  const { counters, summaries } = outcomes.localPoll.result;
  expect(counters['http.requests']).toBeGreaterThan(4);
  expect(counters['http.codes.200']).toBe(counters['http.requests']);
  expect(summaries['plugins.metrics-by-endpoint.response_time.poll'].count).toBe(counters['http.requests']);
  // A polled envelope waits for the next poll, but never for much longer than the 500 ms period.
  expect(summaries['tutti.push_latency_ms'].max).toBeLessThan(1500);
});

test('local-pageload: every phone gets / and its assets with 200, compressed', () => {
  const { exitCode, result, log, checks } = outcomes.pageload;
  if (exitCode !== 0) throw new Error(log.slice(-3000));
  const { counters, summaries } = result;
  expect(counters['tutti.page_loads']).toBe(6);
  expect(counters['plugins.metrics-by-endpoint.page.codes.200']).toBe(6);
  // index.html names at least a stylesheet and a script; sw.js comes after.
  expect(counters['plugins.metrics-by-endpoint.asset.codes.200']).toBeGreaterThanOrEqual(6 * 3);
  expect(counters['http.codes.200']).toBe(counters['http.requests']);
  expect(summaries['tutti.page_load_ms'].count).toBe(6);
  expect(Number.isFinite(summaries['tutti.page_load_ms'].p99)).toBe(true);
  // Brotli/gzip on the wire: the app is a few tens of KB at most, never the raw bundle.
  expect(summaries['tutti.page_bytes'].mean).toBeGreaterThan(1000);
  expect(summaries['tutti.page_bytes'].mean).toBeLessThan(200_000);
  expect(checks.map((c) => c.check)).toContain('tutti.page_load_ms.p99 < 5000');
});

test('a threshold that is not met makes the run exit non-zero', () => {
  const { exitCode, checks } = outcomes.strict;
  expect(exitCode).not.toBe(0);
  expect(checks).toContainEqual({ ok: false, check: 'tutti.push_latency_ms.p99 < 0' });
});

test('viewers that cannot connect fail the run', () => {
  const { exitCode, checks, result } = outcomes.dead;
  expect(exitCode).not.toBe(0);
  expect(result.counters['vusers.failed']).toBe(2);
  expect(checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(expect.arrayContaining(['maxErrorRate < 1', 'tutti.messages > 0']));
});
