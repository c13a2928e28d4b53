#!/usr/bin/env node
// docs/results.md's generated sections (docs/results.md#generated-from-the-benchmarks): each
// benchmark writes bench-results/<name>.json with the tables it printed (bench/lib/results-file.js);
// this turns them into Markdown between markers, with the command, date, Node and load of the run.
// A block's marker carries a hash of its text, so a figure edited by hand is caught
// (test/tools/bench-results.test.js) rather than passed off as measured.
//
//   node tools/docs/bench-results.js [--check] [bench-results/X.json ...]
//     no files: every bench-results/*.json that holds tables; --check: only verify the blocks.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS_DOC = path.join(ROOT, 'docs', 'results.md');
const RESULTS_DIR = path.join(ROOT, 'bench-results');
export const SECTION = '## Generated from the benchmarks';
const SECTION_INTRO =
  'Each block below is the last run of a benchmark as it printed it, written by `node tools/docs/bench-results.js` from `bench-results/<name>.json`. Do not edit a block by hand: run the command it names and regenerate it.';

const START = /^<!-- (bench:[\w-]+) generated sha256=([0-9a-f]{12}) -->$/;
const end = (name) => `<!-- /${name} -->`;
const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** A cell that cannot break the Markdown table. */
const cell = (text) => String(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * One printed table as a Markdown table (numbers right-aligned, as printed).
 * @param {{ title: string, labels: string[], cells: string[][], numeric: boolean[] }} table
 * @returns {string}
 */
export function markdownTable({ title, labels, cells, numeric }) {
  const row = (values) => `| ${values.map(cell).join(' | ')} |`;
  const rule = `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`;
  return [`**${cell(title)}**`, '', row(labels), rule, ...cells.map(row)].join('\n');
}

/**
 * The Markdown of one run (its heading, how it ran, its tables), without the markers.
 * @param {{ bench: string, command: string, date: string, node: string, cpus: number, loadavg: number[], tables: any[] }} run
 * @returns {string}
 */
export function renderRun(run) {
  const when = `${run.date.slice(0, 16).replace('T', ' ')} UTC`;
  const load = `load average ${run.loadavg.join(' / ')} on ${run.cpus} cores`;
  const parts = [`### ${run.bench}`, '', `\`${run.command}\`, ${when}, Node ${run.node}, ${load}.`];
  for (const table of run.tables) parts.push('', markdownTable(table));
  return parts.join('\n');
}

/**
 * The generated blocks of a results page, each with whether its text still matches its hash.
 * @param {string} doc the page's text
 * @returns {Array<{ name: string, start: number, end: number, intact: boolean }>} line indexes
 * @throws {Error} when a block has no end marker
 */
export function generatedBlocks(doc) {
  const lines = doc.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const match = START.exec(lines[i]);
    if (!match) continue;
    const close = lines.indexOf(end(match[1]), i + 1);
    if (close < 0) throw new Error(`docs/results.md: the block ${match[1]} (line ${i + 1}) has no ${end(match[1])}`);
    const body = lines.slice(i + 1, close).join('\n');
    blocks.push({ name: match[1], start: i, end: close, intact: hashOf(body) === match[2] });
    i = close;
  }
  return blocks;
}

/**
 * The page with `run`'s block replaced, or added at the end of the generated section.
 * @param {string} doc
 * @param {Parameters<typeof renderRun>[0]} run
 * @returns {string}
 */
export function withRun(doc, run) {
  const name = run.bench;
  const body = renderRun(run);
  const block = [`<!-- ${name} generated sha256=${hashOf(body)} -->`, body, end(name)];
  const lines = doc.replace(/\n+$/, '').split('\n');
  const old = generatedBlocks(doc).find((b) => b.name === name);
  if (old) lines.splice(old.start, old.end - old.start + 1, ...block);
  else {
    if (!lines.includes(SECTION)) lines.push('', SECTION, '', SECTION_INTRO);
    lines.push('', ...block);
  }
  return `${lines.join('\n')}\n`;
}

/** The results files to read: those named, or every bench-results/*.json holding tables. */
function resultFiles(named) {
  if (named.length) return named.map((f) => path.resolve(f));
  if (!existsSync(RESULTS_DIR)) return [];
  return readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(RESULTS_DIR, f));
}

function main(argv) {
  const check = argv.includes('--check');
  let doc = readFileSync(RESULTS_DOC, 'utf8');
  const broken = generatedBlocks(doc).filter((b) => !b.intact);
  if (check) {
    for (const b of broken) process.stderr.write(`docs/results.md: ${b.name} was edited by hand (line ${b.start + 1}); regenerate it\n`);
    process.exit(broken.length ? 1 : 0);
  }
  let written = 0;
  for (const file of resultFiles(argv.filter((a) => a !== '--check'))) {
    const run = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(run.tables) || !run.bench) {
      process.stderr.write(`${path.relative(ROOT, file)}: no tables (written before bench/lib/results-file.js); skipped\n`);
      continue;
    }
    doc = withRun(doc, run);
    written += 1;
    process.stdout.write(`${run.bench}: ${run.command} (${run.date})\n`);
  }
  writeFileSync(RESULTS_DOC, doc);
  process.stdout.write(`docs/results.md: ${written} block(s) written\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
