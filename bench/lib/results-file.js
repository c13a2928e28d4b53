// What a benchmark run leaves behind: the tables it printed, exactly as printed, plus when, where
// and how it ran, in bench-results/<name>.json. tools/docs/bench-results.js turns those files into
// docs/results.md's generated sections (docs/results.md#generated-from-the-benchmarks), so the
// figures in the docs are the ones a run printed, never copied by hand.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { formatTable, tableCells } from './table.js';

/** @typedef {{ title: string } & import('./table.js').TableCells} PrintedTable */

/**
 * Keep a titled table for the run's results file and return its printed text, for a bench that
 * prints it inside a longer report.
 * @param {PrintedTable[]} printed where this run's tables are kept (one list per run)
 * @param {string} title one line saying what the numbers are, with their unit
 * @param {import('./table.js').Column[]} columns
 * @param {Array<Record<string, any>>} rows
 * @returns {string} the table as formatTable prints it
 */
export function recordTable(printed, title, columns, rows) {
  printed.push({ title, ...tableCells(columns, rows) });
  return formatTable(columns, rows);
}

/**
 * Print a titled table and keep it for the run's results file.
 * @param {PrintedTable[]} printed where this run's tables are kept (one list per run)
 * @param {string} title one line saying what the numbers are, with their unit
 * @param {import('./table.js').Column[]} columns
 * @param {Array<Record<string, any>>} rows
 * @param {{ write: (text: string) => unknown }} [out]
 */
export function printTable(printed, title, columns, rows, out = process.stdout) {
  out.write(`\n${title}\n${recordTable(printed, title, columns, rows)}\n`);
}

/**
 * The command that reproduces this run, as a reader would type it: `npm run <script> -- <flags>`.
 * @param {string} script the npm script, e.g. "bench:osc"
 * @param {string[]} [argv] the flags given (default: this process's)
 * @returns {string}
 */
export function benchCommand(script, argv = process.argv.slice(2)) {
  const quoted = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return quoted.length ? `npm run ${script} -- ${quoted.join(' ')}` : `npm run ${script}`;
}

/**
 * Write a run's results file: `{ bench, command, date, node, cpus, loadavg, tables, ...data }`.
 * @param {string} file where (its folder is created)
 * @param {{ script: string, tables: PrintedTable[], data?: Record<string, unknown>, argv?: string[] }} run
 *   the npm script that ran, the tables it printed, and the raw figures behind them
 * @returns {Record<string, unknown>} what was written
 */
export function writeResults(file, { script, tables, data = {}, argv }) {
  const result = {
    bench: script,
    command: benchCommand(script, argv),
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadavg: loadavg().map((n) => Math.round(n * 100) / 100),
    tables,
    ...data,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
