// The command-line frame shared by the benchmarks' runners: `--flag value` pairs with whole
// numbers checked against their ranges, --help, a clear message and exit code 2 for bad flags, a
// timestamped progress log, and every child process killed when the runner fails.

import { performance } from 'node:perf_hooks';
import { killAllChildren } from './children.js';

/**
 * Parse `--flag value` pairs. `numbers` maps a flag to [option key, min, max] (whole numbers);
 * `others` maps a flag to a function that checks and stores its value.
 * @param {string[]} argv
 * @param {{ defaults: Record<string, any>, numbers: Record<string, [string, number, number]>, others?: Record<string, (value: string, options: Record<string, any>) => void>, usage: string }} spec
 * @returns {Record<string, any>}
 */
export function parseFlags(argv, { defaults, numbers, others = {}, usage }) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value\n${usage}`);
    if (others[flag]) {
      others[flag](value, options);
      continue;
    }
    if (!numbers[flag]) throw new Error(`unknown flag ${flag}\n${usage}`);
    const [key, min, max] = numbers[flag];
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} takes a whole number from ${min} to ${max}`);
    options[key] = n;
  }
  return options;
}

/**
 * Run a benchmark's main: --help prints `usage`; flags that do not parse end the process with
 * code 2; an unhandled failure kills the children and ends it with code 1.
 * @param {{ name: string, usage: string, parse: (argv: string[]) => any, main: (options: any, log: (msg: string) => void) => Promise<void> }} bench
 */
export async function runBench({ name, usage, parse, main }) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage);
    return;
  }
  let options;
  try {
    options = parse(argv);
  } catch (error) {
    process.stderr.write(`${name}: ${error.message}\n`);
    process.exit(2);
  }
  process.on('unhandledRejection', (error) => {
    process.stderr.write(`${name}: ${/** @type {any} */ (error)?.stack ?? error}\n`);
    killAllChildren();
    process.exit(1);
  });
  const started = performance.now();
  const log = (msg) => process.stdout.write(`[${String(Math.round((performance.now() - started) / 1000)).padStart(4)} s] ${msg}\n`);
  await main(options, log);
}
