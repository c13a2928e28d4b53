// The venue's figure for `npm run bench:edge`: the same N WebSocket viewers on the real show
// server (bench:fanout's `ours` ws:N case, docs/reference/benchmarks.md), run in the same benchmark
// run as the edge so both see the same machine.

import { parsePlan } from '../fanout/args.js';
import { runCase } from '../fanout/run-case.js';

/**
 * One run of the venue server with `viewers` WebSocket viewers.
 * @param {{ viewers: number, durationMs: number, run: number, quietWaitS: number, quietCpuPct: number, log: (msg: string) => void }} options
 * @returns {Promise<{ ok: boolean, connected: number, p50: number | null, p99: number | null, max: number | null, lost: number | null, serverCpuPct: number | null, otherCpuPct: number | null, error?: string, raw: any }>}
 */
export async function runVenueOnce({ viewers, durationMs, run, quietWaitS, quietCpuPct, log }) {
  const { plan, problems } = parsePlan([
    '--cases',
    `ws:${viewers}`,
    '--impls',
    'ours',
    '--runs',
    '1',
    '--hold',
    '0',
    '--duration',
    String(Math.max(1, durationMs / 1000)),
    '--quiet-wait',
    String(quietWaitS),
    '--quiet-cpu',
    String(quietCpuPct),
  ]);
  if (!plan || problems.length) throw new Error(`venue plan: ${problems.join('; ')}`);
  const raw = await runCase({ kase: plan.cases[0], impl: 'ours', run, plan, log });
  if (!raw.ok)
    return {
      ok: false,
      connected: 0,
      p50: null,
      p99: null,
      max: null,
      lost: null,
      serverCpuPct: null,
      otherCpuPct: null,
      error: raw.error,
      raw,
    };
  return {
    ok: true,
    connected: raw.connected,
    p50: raw.latencyMs.p50,
    p99: raw.latencyMs.p99,
    max: raw.latencyMs.max,
    lost: raw.messages.lost,
    serverCpuPct: raw.cpu.serverPct,
    otherCpuPct: raw.cpu.otherProcessesPct,
    raw,
  };
}
