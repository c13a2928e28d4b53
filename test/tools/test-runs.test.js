// The runs of `npm test` and its neighbours select their files from one list, the Jest projects
// in jest.config.js (issue 37: the five timing-suite paths were written twice in package.json).
// Every test file is in exactly one of test:parallel, test:timing, test:browsers, or in
// test:interop; the timing run is exactly the suites jest.config.js names as timing suites.

import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listTestRuns } from '../../scripts/list-test-runs.js';
import { TIMING_SUITES } from '../../jest.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every *.test.js under test/, relative to the checkout. */
function allTestFiles(dir = join(ROOT, 'test')) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return allTestFiles(path);
    return name.endsWith('.test.js') ? [relative(ROOT, path)] : [];
  });
}

let runs;
beforeAll(() => {
  runs = listTestRuns();
}, 120_000);

test('every test file runs in exactly one run', () => {
  const all = allTestFiles().sort();
  const owners = new Map(all.map((file) => [file, []]));
  for (const [run, files] of Object.entries(runs)) for (const file of files) owners.get(file)?.push(run);
  const wrong = [...owners].filter(([, inRuns]) => inRuns.length !== 1);
  expect(wrong).toEqual([]);
  expect(Object.keys(runs).sort()).toEqual(['test:browsers', 'test:interop', 'test:parallel', 'test:timing']);
});

test('the timing run is the timing suites, the browsers and interop runs their folders', () => {
  const inTiming = (file) => TIMING_SUITES.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
  const all = allTestFiles();
  expect(runs['test:timing']).toEqual(all.filter(inTiming).sort());
  expect(runs['test:timing'].length).toBeGreaterThanOrEqual(TIMING_SUITES.length);
  expect(runs['test:browsers']).toEqual(all.filter((f) => f.startsWith('test/browsers/')).sort());
  expect(runs['test:interop']).toEqual(all.filter((f) => f.startsWith('test/interop/')).sort());
  for (const file of ['test/audience/sync.test.js', 'test/reliability/flood.test.js']) expect(runs['test:parallel']).not.toContain(file);
});
