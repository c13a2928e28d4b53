#!/usr/bin/env node
// npm run loadtest:report -- [result.json] [--out report.html]   (no file: the newest in artillery/results/)
// Renders a result written by `npm run loadtest` (or `artillery run -o`) as one offline HTML file.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResult } from './lib/report/read-result.js';
import { renderReport } from './lib/report/render-html.js';
import { newestResult } from './lib/newest-result.js';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const USAGE = 'Usage: npm run loadtest:report -- [result.json] [--out report.html]   (no file: the newest result in artillery/results/)';

/**
 * @param {string[]} argv
 * @param {{ resultsDir?: string, say?: (line: string) => void }} [options] where results are (tests)
 * @returns {number} exit code
 */
export function main(argv, { resultsDir = RESULTS_DIR, say = (line) => process.stdout.write(`${line}\n`) } = {}) {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    process.stderr.write(`loadtest:report: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 1) {
    process.stderr.write(`loadtest:report: give one result file (from npm run loadtest; default folder artillery/results/)\n${USAGE}\n`);
    return 2;
  }
  if (positionals.length === 0) {
    const newest = newestResult(resultsDir);
    if (!newest) {
      process.stderr.write(`loadtest:report: no result in ${resultsDir} yet: run npm run loadtest first, or give a file\n${USAGE}\n`);
      return 2;
    }
    say(`Newest result: ${newest}`);
    positionals = [newest];
  }
  const file = resolve(positionals[0]);
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    process.stderr.write(`loadtest:report: cannot read ${positionals[0]}: ${err.code === 'ENOENT' ? 'no such file' : err.message}\n`);
    return 1;
  }
  let html;
  try {
    html = renderReport(readResult(json, basename(file, '.json')), { source: positionals[0] });
  } catch (err) {
    process.stderr.write(`loadtest:report: ${positionals[0]} is ${err.message}\n`);
    return 1;
  }
  const out = resolve(values.out ?? file.replace(/\.json$/i, '') + '.html');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, html);
  say(`Report written to ${out}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
