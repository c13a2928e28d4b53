// Smoke test of `npm run bench:fanout`: the whole benchmark (server worker, naive baseline,
// client processes, report) runs end to end in quick mode with a few viewers, and its JSON
// holds sane numbers. No timing assertions: figures come from the benchmark itself.

import { readFileSync } from 'node:fs';
import { createBenchRunner } from '../support/bench-runner.js';

const runner = createBenchRunner(new URL('../../bench/fanout/run.js', import.meta.url), 'fanout.json');
const out = runner.out;
const runBench = (args, timeoutMs) => runner.run(args, timeoutMs);

afterAll(() => runner.cleanup());

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('quick run: every viewer gets every update, with finite latency, on WS (ours and naive), SSE and long-poll', async () => {
  const { code, output } = await runBench(
    ['--quick', '--cases', 'ws:50,sse:50,longpoll:50', '--duration', '3', '--runs', '1', '--out', out],
    50_000,
  );
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(output).toMatch(/p99 ours \/ baseline/);

  const result = JSON.parse(readFileSync(out, 'utf8'));
  expect(result.runs.map((r) => `${r.case} ${r.impl}`).sort()).toEqual(['longpoll:50 ours', 'sse:50 ours', 'ws:50 naive', 'ws:50 ours']);
  for (const run of result.runs) {
    const where = `${run.case} ${run.impl}`;
    expect({ where, ok: run.ok, error: run.error }).toEqual({ where, ok: true, error: undefined });
    expect({ where, connected: run.connected, openAtEnd: run.openAtEnd }).toEqual({ where, connected: 50, openAtEnd: 50 });
    // At two updates a second a 3 s window holds at least a few updates, and each viewer got each one.
    expect(run.window.updates).toBeGreaterThanOrEqual(3);
    expect(run.messages.expected).toBe(run.window.updates * 50);
    expect(run.messages).toMatchObject({ received: run.messages.expected, lost: 0, outOfOrder: 0, malformed: 0 });
    expect(run.latencyMs.samples).toBe(run.messages.received);
    for (const key of ['p50', 'p99', 'max']) {
      expect(Number.isFinite(run.latencyMs[key])).toBe(true);
      expect(run.latencyMs[key]).toBeGreaterThanOrEqual(0);
    }
    expect(run.latencyMs.p50).toBeLessThanOrEqual(run.latencyMs.p99);
    expect(run.latencyMs.p99).toBeLessThanOrEqual(run.latencyMs.max);
    expect(run.rss.peakMb).toBeGreaterThan(10);
    expect(run.bytes.kbPerClientPerMin).toBeGreaterThan(0);
    expect(run.fanoutMs.n).toBeGreaterThanOrEqual(run.window.updates - 1);
  }
  const ours = result.runs.find((r) => r.case === 'ws:50' && r.impl === 'ours');
  const naive = result.runs.find((r) => r.case === 'ws:50' && r.impl === 'naive');
  // The real server sends deltas; the baseline sends the whole ≈18 KB state every time.
  expect(naive.bytes.kbPerClientPerMin).toBeGreaterThan(ours.bytes.kbPerClientPerMin * 10);
  // The real server's own /metrics agrees with what the viewers saw.
  expect(ours.serverMetrics.clients.ws).toBe(50);
  expect(ours.serverMetrics.framesDropped).toBe(0);

  expect(result.summary).toHaveLength(4);
  expect(result.ratios).toEqual([expect.objectContaining({ case: 'ws:50', baseline: 'naive' })]);
  expect(result.targets.every((t) => t.status === 'not measured')).toBe(true);
  // No worker outlives the run.
  const pids = result.runs.flatMap((r) => [r.pids.server, ...r.pids.clients]);
  expect(pids.length).toBeGreaterThanOrEqual(8);
  expect(pids.filter(alive)).toEqual([]);
}, 60_000);

test('bad flags: exit 2 with a message naming the problem', async () => {
  const { code, output } = await runBench(['--cases', 'ws:abc', '--runs', '0'], 10_000);
  expect(code).toBe(2);
  expect(output).toMatch(/--cases: "ws:abc" is not TRANSPORT:N/);
  expect(output).toMatch(/--runs must be an integer from 1/);
});
