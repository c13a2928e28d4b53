// The flag table (docs/reference/cli.md), the metric names (docs/reference/metrics.md) and the folder
// layout (docs/explanation/architecture.md) are the documented contract (acceptance checks are written
// against them). Several people add flags, metrics and folders in parallel; these checks keep the
// pages and the code saying the same thing.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVE_FLAGS } from '../../local-server/src/cli/config.js';
import { BadInput, createMetrics } from '../../local-server/src/logs/metrics.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const page = (path) => readFileSync(`${ROOT}${path}`, 'utf8');

/** The text of one section of a page: from its heading to the next heading of its level or above. */
function section(path, heading) {
  const readme = page(path);
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${path} has no "${heading}" section`);
  const level = heading.indexOf(' ');
  const next = readme.slice(start + heading.length + 2).search(new RegExp(`\\n#{1,${level}} `));
  return next === -1 ? readme.slice(start) : readme.slice(start, start + heading.length + 2 + next);
}

test('the `tutti serve` flags table names exactly SERVE_FLAGS', () => {
  const rows = section('docs/reference/cli.md', '### `tutti serve` flags')
    .split('\n')
    .filter((l) => l.startsWith('| `--'));
  const documented = new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`--([a-z-]+)/g)].map((m) => m[1])));
  const flags = new Set(SERVE_FLAGS.map((f) => f.name));
  expect([...flags].filter((name) => !documented.has(name))).toEqual([]);
  expect([...documented].filter((name) => !flags.has(name))).toEqual([]);
});

test('every metric and every tutti_bad_input_total source is on the metrics page', () => {
  const paragraph = section('docs/reference/metrics.md', '## Metric names');
  const names = createMetrics()
    .registry.getMetricsAsArray()
    .map((m) => m.name);
  expect(names.length).toBeGreaterThan(15);
  expect(names.filter((name) => !paragraph.includes(`\`${name}`))).toEqual([]);
  const sources = Object.values(BadInput);
  expect(sources.filter((source) => !new RegExp(`\\b${source}\\b`).test(paragraph))).toEqual([]);
});

test('"Where things are" lists every top-level folder the repository tracks', () => {
  const layout = section('docs/explanation/architecture.md', '## Where things are');
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path.includes('/'));
  const folders = [...new Set(tracked.map((path) => path.slice(0, path.indexOf('/'))))];
  expect(folders.length).toBeGreaterThan(5);
  expect(folders.filter((folder) => !new RegExp(`^${folder.replace('.', '\\.')}/`, 'm').test(layout))).toEqual([]);
});
