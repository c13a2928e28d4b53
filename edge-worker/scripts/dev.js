// `npm run edge:dev`: the edge worker on local workerd at http://127.0.0.1:8787 with a dev
// publish token. Creates edge-worker/.dev.vars (gitignored, mode 0600: dev-vars.js) on first run and prints the token.
//
// It runs the worker on one workerd without wrangler's dev proxy (direct-runtime.js): that
// proxy costs about five open files per WebSocket viewer and falls over near 4,000 viewers
// under a 20,000 open-files limit; the direct runtime holds 5,000+ (docs/explanation/edge-design.md).
// If workerd crashes it is named in the terminal and started again on the same port and storage,
// a bounded number of times (supervise-workerd.js).
// `--port N` and `--persist-to DIR` work as in `wrangler dev`. Any other argument (or
// `--wrangler`) runs `wrangler dev` itself with the arguments, as before
// (e.g. `npm run edge:dev -- --port 8788 --local-protocol https`).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDevToken } from './dev-vars.js';
import { ensureAudienceAssets } from './ensure-assets.js';
import { parseDevArgs } from './dev-args.js';
import { watchSources } from './watch-sources.js';
import { superviseWorkerd } from './supervise-workerd.js';

const DEV_VARS = fileURLToPath(new URL('../.dev.vars', import.meta.url));
const CONFIG = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const WATCHED = [fileURLToPath(new URL('../src/', import.meta.url)), fileURLToPath(new URL('../../core/', import.meta.url))];
/** Where `wrangler dev` keeps Durable Object storage by default: both modes share the show. */
const DEFAULT_PERSIST = fileURLToPath(new URL('../.wrangler/state', import.meta.url));

/** @type {string} */
let token;
try {
  token = ensureDevToken(DEV_VARS, (line) => console.log(line));
} catch (err) {
  console.error(`edge:dev: ${err instanceof Error ? err.message : err}`);
  process.exit(2);
}
const assets = await ensureAudienceAssets({ log: (line) => console.log(line) });
const parsed = parseDevArgs(process.argv.slice(2));

/** @param {string} base */
function printUrls(base) {
  console.log(`edge worker: ${base}  (audience app: ${assets})`);
  console.log(`publish to it: npx tutti serve --edge ${base} --edge-token ${token}`);
}

if (parsed.mode === 'wrangler') {
  printUrls(`http://127.0.0.1:${parsed.port}`);
  console.log('(running `wrangler dev` itself: its dev proxy holds about 4,000 WebSocket viewers at most)');
  const wranglerArgs = [
    WRANGLER,
    'dev',
    '-c',
    CONFIG,
    '--ip',
    '127.0.0.1',
    ...(parsed.portGiven ? [] : ['--port', String(parsed.port)]),
    ...parsed.wranglerArgs,
  ];
  const child = spawn(process.execPath, wranglerArgs, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { startDirectRuntime } = await import('./direct-runtime.js');
  const runtime = await startDirectRuntime({
    token,
    persistDir: parsed.persistTo ?? DEFAULT_PERSIST,
    port: parsed.port,
    logLevel: 'info',
  }).catch((err) => {
    // e.g. the port is taken: one clear line, not a stack trace.
    console.error(`edge:dev: the worker did not start on 127.0.0.1:${parsed.port}: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
  // Printed once it listens, with the real port (`--port 0` picks a free one).
  printUrls(runtime.url.origin);
  // Like wrangler dev: an edit of the worker (or of core/, which it bundles) reloads it.
  watchSources(WATCHED, async (file) => {
    console.log(`${file} changed: reloading the worker…`);
    try {
      await runtime.reload();
      console.log('reloaded');
    } catch (err) {
      console.log(`reload failed (the previous worker keeps running): ${err instanceof Error ? err.message : err}`);
    }
  });
  let stopping = false;
  const stop = async (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    await runtime.dispose().catch(() => {});
    process.exit(exitCode);
  };
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());
  // A crash loop ends edge:dev with a non-zero exit instead of spinning (docs/explanation/edge-design.md).
  superviseWorkerd({ runtime, log: (line) => console.error(line), giveUp: () => void stop(1) });
}
