#!/usr/bin/env node
// Which test files each npm test script runs: every `test:*` script that calls Jest is run with
// `--listTests`, and its files are printed (or returned) relative to the checkout, sorted. The
// files of each run are written once, as Jest projects in jest.config.js; this shows what they
// select, e.g. to compare before and after a change there:
//   node scripts/list-test-runs.js > before.txt   …change…   node scripts/list-test-runs.js | diff before.txt -

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const JEST = 'node --experimental-vm-modules node_modules/jest/bin/jest.js';

/**
 * @param {string} [root] the checkout
 * @returns {Record<string, string[]>} script name → its test files (relative paths, sorted)
 */
export function listTestRuns(root = ROOT) {
  const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  /** @type {Record<string, string[]>} */
  const runs = {};
  for (const [name, command] of Object.entries(scripts)) {
    if (!name.startsWith('test:') || !command.startsWith(`${JEST} `)) continue;
    // Our scripts' arguments are plain words (no quotes or shell syntax).
    const args = command.slice(JEST.length).trim().split(/\s+/).filter(Boolean);
    const out = execFileSync(
      process.execPath,
      ['--experimental-vm-modules', resolve(root, 'node_modules/jest/bin/jest.js'), ...args, '--listTests'],
      {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 60_000,
      },
    );
    runs[name] = out
      .split('\n')
      .filter((line) => line.trim().endsWith('.test.js'))
      .map((line) => line.trim())
      .map((file) => relative(root, file))
      .sort();
  }
  return runs;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, files] of Object.entries(listTestRuns())) {
    process.stdout.write(`${name} (${files.length})\n${files.map((f) => `  ${f}\n`).join('')}`);
  }
}
