// `npm run typecheck` for the worker (docs/explanation/edge-design.md): `wrangler types` writes the
// Workers runtime types and this deployment's `Env` (from wrangler.jsonc) into
// .wrangler/types/ (generated, not committed: rerun on every check so it always matches the
// config), then tsc checks edge-worker/src against them (edge-worker/tsconfig.json).

import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const TYPES_DIR = fileURLToPath(new URL('../.wrangler/types/', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

mkdirSync(TYPES_DIR, { recursive: true });
/** @param {string} what @param {string} script @param {string[]} args */
function run(what, script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: HERE, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`${what} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}
// The secrets' names come from the committed example, never from a developer's .dev.vars (absent
// on a fresh clone, and what it holds must not change what the check says).
run('wrangler types', WRANGLER, [
  'types',
  `${TYPES_DIR}worker-configuration.d.ts`,
  '-c',
  'wrangler.jsonc',
  '--env-file',
  '.dev.vars.example',
]);
process.stdout.write(run('tsc (edge-worker)', TSC, ['-p', 'tsconfig.json']));
