// docs/results.md's generated sections come from the benches' own results files
// (docs/results.md#generated-from-the-benchmarks): what a bench printed is what the page shows,
// and a figure edited by hand is caught.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { printTable, writeResults } from '../../bench/lib/results-file.js';
import { generatedBlocks, RESULTS_DOC, SECTION, withRun } from '../../tools/docs/bench-results.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tutti-bench-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [
  { key: 'case', label: 'case' },
  { key: 'p99', label: 'p99 ms' },
];

/** A bench run: prints a table, writes its results file, returns what it printed and wrote. */
function fakeRun(rows, argv = ['--runs', '3']) {
  let printed = '';
  const tables = [];
  printTable(tables, 'push latency, ms', COLUMNS, rows, { write: (text) => (printed += text) });
  const file = path.join(dir, 'x.json');
  writeResults(file, { script: 'bench:x', tables, data: { rows }, argv });
  return { printed, run: JSON.parse(readFileSync(file, 'utf8')) };
}

test('a run written by a bench becomes a Markdown table with the cells it printed', () => {
  const { printed, run } = fakeRun([
    { case: 'ws | lean', p99: 8.4321 },
    { case: 'poll', p99: 120 },
  ]);
  expect(printed).toContain('push latency, ms');
  expect(printed).toMatch(/ws \| lean\s+8\.43/);
  expect(run).toMatchObject({ bench: 'bench:x', command: 'npm run bench:x -- --runs 3', cpus: expect.any(Number) });
  const doc = withRun('# Results\n\nHand-written text.\n', run);
  expect(doc).toContain('Hand-written text.');
  expect(doc).toContain(SECTION);
  expect(doc).toContain('`npm run bench:x -- --runs 3`');
  // The same cells as printed; a pipe in a cell cannot split the Markdown row.
  expect(doc).toContain('| case | p99 ms |\n|---|---:|\n| ws \\| lean | 8.43 |\n| poll | 120 |');
});

test('a new run replaces its own block only, and the page reads the same after a second write', () => {
  const first = withRun('# Results\n', fakeRun([{ case: 'a', p99: 1 }]).run);
  const other = withRun(first, { ...fakeRun([{ case: 'b', p99: 2 }]).run, bench: 'bench:y' });
  const again = withRun(other, fakeRun([{ case: 'a', p99: 5 }]).run);
  expect(again).toContain('| a | 5 |');
  expect(again).not.toContain('| a | 1 |');
  expect(again).toContain('| b | 2 |');
  expect(generatedBlocks(again).map((b) => b.name)).toEqual(['bench:x', 'bench:y']);
  expect(withRun(again, fakeRun([{ case: 'a', p99: 5 }]).run).replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, '')).toBe(
    again.replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, ''),
  );
});

test('a figure edited by hand in a generated block is caught', () => {
  const doc = withRun('# Results\n', fakeRun([{ case: 'a', p99: 12 }]).run);
  expect(generatedBlocks(doc).map((b) => b.intact)).toEqual([true]);
  expect(generatedBlocks(doc.replace('| a | 12 |', '| a | 1.2 |')).map((b) => b.intact)).toEqual([false]);
  expect(() => generatedBlocks(doc.replace('<!-- /bench:x -->', ''))).toThrow(/has no <!-- \/bench:x -->/);
});

test("docs/results.md's generated blocks are as the benches wrote them", () => {
  const blocks = generatedBlocks(readFileSync(RESULTS_DOC, 'utf8'));
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.filter((b) => !b.intact).map((b) => b.name)).toEqual([]);
});
