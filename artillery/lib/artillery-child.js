// `artillery run` as a child process, on the project's pinned Node (node_modules/.bin first on
// PATH: the artillery script starts with `#!/usr/bin/env node`). Its progress goes to our
// stdout as it comes; the ensure verdicts ("ok: …" / "fail: …") are also kept for the report.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN_DIR = `${ROOT}node_modules/.bin`;
export const ARTILLERY_BIN = `${BIN_DIR}/artillery`;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * The environment Artillery runs in: pinned Node, no telemetry, no colours in captured text.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function artilleryEnv(env = process.env) {
  return { ...env, PATH: `${BIN_DIR}${delimiter}${env.PATH ?? ''}`, ARTILLERY_DISABLE_TELEMETRY: 'true' };
}

/**
 * @param {{ script: string, target: string, output: string, overrides?: object, variables?: object,
 *   environment?: string, scenarioName?: string, quiet?: boolean, echo?: (line: string) => void,
 *   signal?: AbortSignal }} options
 * @returns {Promise<{ exitCode: number, checks: Array<{ ok: boolean, check: string }>, args: string[] }>}
 */
export function runArtillery({
  script,
  target,
  output,
  overrides,
  variables,
  environment,
  scenarioName,
  quiet = false,
  echo = (line) => process.stdout.write(`${line}\n`),
  signal,
}) {
  const args = ['run', '--target', target, '--output', output];
  if (environment) args.push('--environment', environment);
  if (scenarioName) args.push('--scenario-name', scenarioName);
  if (overrides) args.push('--overrides', JSON.stringify(overrides));
  if (variables && Object.keys(variables).length) args.push('--variables', JSON.stringify(variables));
  if (quiet) args.push('--quiet');
  args.push(script);
  const child = spawn(ARTILLERY_BIN, args, { cwd: ROOT, env: artilleryEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const onAbort = () => child.kill('SIGINT');
  signal?.addEventListener('abort', onAbort, { once: true });
  const checks = [];
  const scan = (line) => {
    const plain = line.replace(ANSI, '');
    const m = /^(ok|fail): (.+?)( \(optional\))?$/.exec(plain.trim());
    if (m) checks.push({ ok: m[1] === 'ok', check: m[2] });
    echo(line);
  };
  createInterface({ input: child.stdout }).on('line', scan);
  createInterface({ input: child.stderr }).on('line', scan);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: code ?? (sig ? 128 : 1), checks, args });
    });
  });
}
