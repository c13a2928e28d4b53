// Shared by the Artillery suites: a real show server playing the load-test score, and a way to
// run one scenario YAML briefly through the real `artillery run` child process.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../local-server/src/server.js';
import { runArtillery } from '../../artillery/lib/artillery-child.js';
import { readResult } from '../../artillery/lib/report/read-result.js';

export const LOAD_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));
export const SCENARIOS = fileURLToPath(new URL('../../artillery/scenarios/', import.meta.url));

/** The load-test score, playing, on 127.0.0.1 with system-chosen ports. */
export function startLoadShow(extra = {}) {
  return startShowServer({
    scorePath: LOAD_SCORE,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 'artillery-test',
    autoplay: true,
    oscTargets: [],
    ...extra,
  });
}

/** A scratch folder removed by the returned function. */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-artillery-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Run a scenario with a few users for a few seconds.
 * @param {{ file: string, target: string, dir: string, users?: number, ramp?: number, hold?: number,
 *   variables?: object, overrides?: object, phases?: object[], environment?: string, scenarioName?: string }} options
 */
export async function runBriefly({
  file,
  target,
  dir,
  users = 4,
  ramp = 2,
  hold = 2,
  variables = {},
  overrides = {},
  phases,
  environment,
  scenarioName,
}) {
  const output = join(dir, `${file.replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2)}.json`);
  const lines = [];
  const rate = Math.ceil(users / ramp);
  const config = {
    phases: phases ?? [{ duration: Math.ceil(users / rate), arrivalRate: rate, maxVusers: users }],
    ...(overrides.config ?? {}),
  };
  const run = await runArtillery({
    script: join(SCENARIOS, file),
    target,
    output,
    overrides: { ...overrides, config },
    variables: { ramp, hold, ...variables },
    environment,
    scenarioName,
    echo: (line) => lines.push(line),
  });
  let json = null;
  try {
    json = JSON.parse(readFileSync(output, 'utf8'));
  } catch {
    json = null;
  }
  const result = json ? readResult(json, file).runs[0] : null;
  return { ...run, json, result, log: lines.join('\n') };
}

/** Expectations every push-receiving scenario must meet (docs/how-to/load-test.md#scenarios). */
export function expectHealthyViewers(outcome, users) {
  const { result } = outcome;
  if (!result || outcome.exitCode !== 0) throw new Error(`artillery failed (exit ${outcome.exitCode}):\n${outcome.log.slice(-3000)}`);
  const latency = result.summaries['tutti.push_latency_ms'];
  expect(latency).toBeDefined();
  expect(latency.count).toBeGreaterThan(0);
  expect(Number.isFinite(latency.p99)).toBe(true);
  expect(latency.p99).toBeGreaterThanOrEqual(latency.p50);
  expect(latency.min).toBeGreaterThan(-50); // same machine, same clock
  expect(result.counters['tutti.messages']).toBeGreaterThanOrEqual(latency.count);
  expect(result.counters['tutti.resyncs']).toBe(0); // present at 0 (docs/how-to/load-test.md)
  expect(result.counters['vusers.created']).toBe(users);
  expect(result.counters['vusers.completed']).toBe(users);
  expect(result.counters['vusers.failed'] ?? 0).toBe(0);
  expect(result.summaries['tutti.join_ms'].count).toBe(users);
  expect(result.periods.length).toBeGreaterThan(0);
  expect(outcome.checks.map((c) => c.check)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^tutti\.push_latency_ms\.p99 < \d+$/), expect.stringMatching(/^maxErrorRate < /)]),
  );
  expect(outcome.checks.every((c) => c.ok)).toBe(true);
}
