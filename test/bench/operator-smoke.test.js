// Smoke test of `npm run bench:operator`: the whole benchmark (show server, phone processes, the
// control API, the naive replay, the small hall, the report) runs end to end with a few phones, and
// every phone applies every action on both streams. No timing assertions: figures come from the
// benchmark itself.
import { afterAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createBenchRunner } from '../support/bench-runner.js';
import { OPERATOR_ACTIONS } from '../../bench/operator/actions.js';

const runner = createBenchRunner(new URL('../../bench/operator/run.js', import.meta.url), 'operator.json');

afterAll(() => runner.cleanup());

test('40 phones per stream (two processes), 5 in the small hall: every action applied by every phone, ours and naive', async () => {
  const { code, output } = await runner.run(
    ['--viewers', '40', '--baseline', '5', '--runs', '1', '--per-process', '100', '--out', runner.out],
    120_000,
  );
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(output).toMatch(/p99 \/ naive/);
  // Without --target the phones are on the venue, and the report says so (it printed "undefined").
  expect(output).toMatch(/applied on 40 phones of the venue/);
  expect(output).not.toMatch(/undefined/);
  const saved = JSON.parse(readFileSync(runner.out, 'utf8'));
  const cases = saved.runs[0].cases;
  expect(cases.map((c) => `${c.impl} ${c.stream} ${c.viewers}`)).toEqual([
    'ours lean 40',
    'naive lean 40',
    'ours lean 5',
    'ours full 40',
    'naive full 40',
    'ours full 5',
  ]);
  for (const c of cases) {
    expect(c).toMatchObject({ connected: c.viewers, gaps: 0, closed: 0 });
    for (const action of OPERATOR_ACTIONS) {
      expect(c.actions[action.name]).toMatchObject({ applied: c.viewers, missing: 0, already: 0 });
      expect(c.actions[action.name].p99).toBeGreaterThan(0);
    }
  }
  expect(saved.rows).toHaveLength(2 * OPERATOR_ACTIONS.length);
}, 130_000);
