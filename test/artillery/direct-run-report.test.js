// Issue 40.17: a scenario YAML run directly (`artillery run -t … -o result.json local-sse.yml`,
// as docs/explanation/threat-model.md#several-shows-one-deployment) writes only aggregate/intermediate. Artillery printed three
// passing checks; the report said "No checks recorded" and "remote target". It now shows the
// same verdicts Artillery printed, and names 127.0.0.1 / ::1 / localhost targets as local.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoadShow, scratch, runBriefly } from './helpers.js';
import { main as report } from '../../artillery/report.js';
import { readResult } from '../../artillery/lib/report/read-result.js';
import { comparisonRows } from '../../artillery/lib/report/zscore-figures.js';
import { isLoopbackUrl } from '../../artillery/lib/loopback.js';
import { readEnsure } from '../../artillery/lib/report/ensure-checks.js';
import { SCENARIOS, SCENARIO_DIR } from '../../artillery/lib/catalog.js';

let show;
let tmp;
let sse;

beforeAll(async () => {
  show = await startLoadShow();
  tmp = scratch();
  sse = await runBriefly({ file: 'local-sse.yml', target: show.audienceUrl, dir: tmp.dir, users: 2, ramp: 1, hold: 2 });
}, 60_000);

afterAll(async () => {
  await show?.close();
  tmp?.remove();
});

test('the report of a plain artillery run shows the checks Artillery printed', () => {
  if (sse.exitCode !== 0 || !sse.json) throw new Error(`artillery failed (exit ${sse.exitCode}):\n${sse.log.slice(-3000)}`);
  expect(Object.keys(sse.json).sort()).toEqual(['aggregate', 'intermediate']); // what Artillery keeps
  const printed = sse.checks.map((c) => `${c.ok ? 'ok' : 'fail'}: ${c.check}`).sort();
  expect(printed).toEqual(['ok: maxErrorRate < 1', 'ok: tutti.messages > 0', 'ok: tutti.push_latency_ms.p99 < 1000']);

  const file = join(tmp.dir, 'plain-sse.json');
  writeFileSync(file, JSON.stringify(sse.json));
  expect(report([file, '--out', join(tmp.dir, 'plain-sse.html')], { say: () => {} })).toBe(0);
  const html = readFileSync(join(tmp.dir, 'plain-sse.html'), 'utf8');
  expect(html).not.toMatch(/No checks recorded/);
  expect(html).toMatch(/<div class="verdict passed">All checks passed<\/div>/);
  const shown = [...html.matchAll(/<li class="(ok|fail)"><span>\1<\/span><code>(.*?)<\/code><\/li>/g)]
    .map((m) => `${m[1]}: ${m[2].replace(/&gt;/g, '>').replace(/&lt;/g, '<')}`)
    .sort();
  expect(shown).toEqual(printed);
  expect(html).toMatch(/Checks recomputed from the aggregate/);
  expect(html).not.toMatch(/remote target/);
});

test('a check the run did not meet is shown failed, as Artillery would print it', () => {
  const json = JSON.parse(JSON.stringify(sse.json));
  json.aggregate.summaries['tutti.push_latency_ms'].p99 = 5000;
  json.aggregate.summaries['tutti.push_latency_ms'].max = 5000;
  const run = readResult(json, 'plain').runs[0];
  expect(run.checks).toContainEqual({ ok: false, check: 'tutti.push_latency_ms.p99 < 1000' });
  expect(run.checks.filter((c) => c.ok)).toHaveLength(2);
});

test('127.0.0.1, ::1 and localhost targets are local, with or without a port or path', () => {
  for (const url of ['http://127.0.0.1', 'http://localhost', 'ws://[::1]/ws', 'http://LOCALHOST:8080', 'ws://127.0.0.1:9/ws']) {
    expect(isLoopbackUrl(url)).toBe(true);
    const meta = { target: url, users: 2 };
    const rows = comparisonRows(readResult({ ...sse.json, tutti: meta }, 'local-sse').runs, meta);
    expect(rows.find((r) => /push latency/.test(r.topic))?.tuttiSetup).toMatch(/loopback, load generator on the same machine/);
  }
  for (const url of ['http://192.168.1.20:8080', 'https://tutti.example', 'not a url', null]) expect(isLoopbackUrl(url)).toBe(false);
});

test("every scenario's ensure block is read as Artillery reads it (zscore-profile per environment)", () => {
  for (const scenario of Object.values(SCENARIOS)) {
    const yaml = readFileSync(join(SCENARIO_DIR, scenario.file), 'utf8');
    for (const environment of scenario.parts ? scenario.parts.map((p) => p.environment) : [undefined]) {
      const ensure = readEnsure(yaml, environment);
      expect([scenario.name, environment, ensure?.maxErrorRate]).toEqual([scenario.name, environment, 1]);
      expect(ensure?.thresholds.length).toBeGreaterThan(0);
      for (const [metric, max] of ensure?.thresholds ?? [])
        expect([metric, Number.isFinite(max)]).toEqual([expect.stringMatching(/^[\w.]+\.p99$/), true]);
    }
  }
  expect(readEnsure(readFileSync(join(SCENARIO_DIR, 'vote-storm.yml'), 'utf8'))?.conditions).toEqual([
    'tutti.votes_counted > 0',
    'tutti.votes_refused == 0',
  ]);
});
