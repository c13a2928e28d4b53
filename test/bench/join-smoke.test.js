// Smoke test of `npm run bench:join`: the storm (show server with the built app, generator
// processes, the probe phone alone and mid-storm, the report) runs end to end with a few phones,
// each of which gets the page, both hashed assets and its first state. No timing assertions.
import { afterAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createBenchRunner } from '../support/bench-runner.js';

const runner = createBenchRunner(new URL('../../bench/join/run.js', import.meta.url), 'join.json');

afterAll(() => runner.cleanup());

test('60 phones within 2 s: every one has its first state; the probe phone too, alone and mid-storm', async () => {
  const { code, output } = await runner.run(['--phones', '60', '--window', '2', '--runs', '1', '--out', runner.out], 90_000);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(output).toMatch(/probe phone mid-storm/);
  const [run] = JSON.parse(readFileSync(runner.out, 'utf8')).runs;
  expect(run).toMatchObject({ phones: 60, failed: 0, errors: {} });
  expect(run.bytesPerPhone).toBeGreaterThan(1000); // the page and both assets, compressed
  expect(run.first.p99).toBeGreaterThan(0);
  expect(run.probeAlone.first).toBeGreaterThan(0);
  expect(run.probeDuring.first).toBeGreaterThan(0);
  expect(run.serverCpuSeconds).toBeGreaterThan(0);
}, 100_000);
