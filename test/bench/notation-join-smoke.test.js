// Smoke test of `npm run bench:notation-join`: the server engraves the Mozart quartet, then a
// few tablets join at once through the simulated link; each gets page, script, style, cue
// table, bar map, page 1 and (on the first violin's and the full score's page 1) the music font.
// No timing assertions. Chromium is left out (the browser suites cover the part page).
import { afterAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createBenchRunner } from '../support/bench-runner.js';

const runner = createBenchRunner(new URL('../../bench/notation/join-run.js', import.meta.url), 'notation-join.json');

afterAll(() => runner.cleanup());

test('10 tablets at once over the link: every one has its first page; the baseline tablet too', async () => {
  const { code, output } = await runner.run(['--tablets', '10', '--runs', '1', '--no-chromium', '--out', runner.out], 120_000);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(output).toMatch(/10 tablets at once/);
  const [run] = JSON.parse(readFileSync(runner.out, 'utf8')).runs;
  expect(run.alone).toMatchObject({ font: true, requests: 7 }); // the first violin's page 1 has "♩ = 100"
  expect(run.withFont).toBe(4); // 10 tablets dealt over violin-1, violin-2, viola, violoncello, all
  expect(run.storm.p99).toBeGreaterThan(run.alone.ms / 2);
  expect(run.bytesPerTablet).toBeGreaterThan(20); // KB: script, page and maybe the font
}, 130_000);
