// Runs one benchmark script (`npm run bench:*`) as a child process for a smoke test: its output
// is collected, it is interrupted after a deadline, and a leftover child is killed after the
// suite (its workers exit when it goes). The JSON it writes goes to a temporary folder.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param {URL} script the benchmark's run.js
 * @param {string} outName the JSON file name inside the temporary folder
 */
export function createBenchRunner(script, outName) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-'));
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  return {
    /** Where the benchmark is told to write its JSON (pass it with --out). */
    out: join(dir, outName),
    /**
     * @param {string[]} args
     * @param {number} timeoutMs
     * @returns {Promise<{ code: number | null, output: string }>}
     */
    run(args, timeoutMs) {
      return new Promise((resolve, reject) => {
        const bench = spawn(process.execPath, [fileURLToPath(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        child = bench;
        let output = '';
        bench.stdout.on('data', (d) => (output += d));
        bench.stderr.on('data', (d) => (output += d));
        const timer = setTimeout(() => {
          bench.kill('SIGINT');
          reject(new Error(`bench did not finish within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        bench.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      });
    },
    /** Kill a child still running and delete the temporary folder (afterAll). */
    cleanup() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
