// README.md's flag table, metrics paragraph and folder layout are the documented contract
// (acceptance checks are written against them). Several people add flags, metrics and folders in
// parallel; these checks keep the README and the code saying the same thing.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVE_FLAGS } from '../../local-server/src/config.js';
import { BadInput, createMetrics } from '../../local-server/src/metrics.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${ROOT}README.md`, 'utf8');

/** The text of one README section: from its heading to the next heading of any level. */
function section(heading) {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "${heading}" section`);
  const next = readme.slice(start + heading.length + 2).search(/\n#{1,6} /);
  return next === -1 ? readme.slice(start) : readme.slice(start, start + heading.length + 2 + next);
}

test('the `tutti serve` flags table names exactly SERVE_FLAGS', () => {
  const rows = section('### `tutti serve` flags')
    .split('\n')
    .filter((l) => l.startsWith('| `--'));
  const documented = new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`--([a-z-]+)/g)].map((m) => m[1])));
  const flags = new Set(SERVE_FLAGS.map((f) => f.name));
  expect([...flags].filter((name) => !documented.has(name))).toEqual([]);
  expect([...documented].filter((name) => !flags.has(name))).toEqual([]);
});

test('every metric and every tutti_bad_input_total source is in the metrics paragraph', () => {
  const paragraph = readme.slice(readme.indexOf('\nMetrics: `tutti_'), readme.indexOf('### OSC address space'));
  const names = createMetrics()
    .registry.getMetricsAsArray()
    .map((m) => m.name);
  expect(names.length).toBeGreaterThan(15);
  expect(names.filter((name) => !paragraph.includes(`\`${name}`))).toEqual([]);
  const sources = Object.values(BadInput);
  expect(sources.filter((source) => !new RegExp(`\\b${source}\\b`).test(paragraph))).toEqual([]);
});

test('"Where things are" lists every top-level folder the repository tracks', () => {
  const layout = section('## Where things are');
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((path) => path.includes('/'));
  const folders = [...new Set(tracked.map((path) => path.slice(0, path.indexOf('/'))))];
  expect(folders.length).toBeGreaterThan(5);
  expect(folders.filter((folder) => !new RegExp(`^${folder.replace('.', '\\.')}/`, 'm').test(layout))).toEqual([]);
});
