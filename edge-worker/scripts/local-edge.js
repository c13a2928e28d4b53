// Runs the edge worker on local workerd for tests and benchmarks, in a child process so that
// wrangler and workerd never share the caller's event loop, and a "restart" is a real one.
//
//   import { startLocalEdge } from '<root>/edge-worker/scripts/local-edge.js';
//   const edge = await startLocalEdge({ token: 't', persistDir, vars: { SHARD_CAPACITY: 3 } });
//   edge.url  // http://127.0.0.1:<port>
//   await edge.stop();
//
// As a script (the child): `node local-edge.js '<json options>'` prints one line
// `{"url": "..."}` once ready and disposes the worker on SIGTERM/SIGINT or when stdin closes.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureAudienceAssets } from './ensure-assets.js';

const CONFIG_PATH = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/**
 * @typedef {object} LocalEdgeOptions
 * @property {string} token PUBLISH_TOKEN for this run
 * @property {string | false} [persistDir] where Durable Object storage lives (false: in memory)
 * @property {Record<string, string | number>} [vars] overrides for wrangler.jsonc vars
 * @property {number} [port] 0 (default) picks a free port
 * @property {(line: string) => void} [log] receives the child's stderr lines
 * @property {number} [startTimeoutMs]
 * @property {boolean} [direct] run the worker on one workerd without wrangler's dev proxy
 *   (direct-runtime.js, what `npm run edge:dev` runs): the proxy costs about five open files per
 *   WebSocket viewer, so thousands of viewers need this to stay under the open-files limit
 */

/**
 * Start the worker in a child process and wait until it serves.
 * @param {LocalEdgeOptions} options
 * @returns {Promise<{ url: string, token: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startLocalEdge({
  token,
  persistDir = false,
  vars = {},
  port = 0,
  log = () => {},
  startTimeoutMs = 60_000,
  direct = false,
}) {
  await ensureAudienceAssets({ build: false, log });
  const options = JSON.stringify({ token, persistDir, vars, port, direct });
  const child = spawn(process.execPath, [SELF, options], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  createInterface({ input: child.stderr }).on('line', log);
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local edge did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (!line.startsWith('{"url"')) return log(line);
      clearTimeout(timer);
      const ready = JSON.parse(line);
      resolve(ready.url);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the local edge exited (code ${code}) before it was ready`));
    });
  });

  let stopping = null;
  return {
    url: url.replace(/\/$/, ''),
    token,
    pid: child.pid ?? -1,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      })();
      return stopping;
    },
  };
}

/** Print the ready line and dispose on SIGTERM/SIGINT or when the parent goes away. */
function serveUntilStopped(url, dispose) {
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  let disposing = false;
  const shutdown = async () => {
    if (disposing) return;
    disposing = true;
    try {
      await dispose();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // The parent went away without stopping us: do not leave workerd behind.
  process.stdin.on('end', shutdown);
  process.stdin.resume();
}

async function runChild(json) {
  const { token, persistDir, vars, port, direct } = JSON.parse(json);
  if (direct) {
    const { startDirectRuntime } = await import('./direct-runtime.js');
    const runtime = await startDirectRuntime({ token, persistDir, vars, port });
    return serveUntilStopped(runtime.url.href, runtime.dispose);
  }
  const { unstable_startWorker } = await import('wrangler');
  /** @type {Record<string, { type: string, value: string }>} */
  const bindings = { PUBLISH_TOKEN: { type: 'secret_text', value: token } };
  for (const [name, value] of Object.entries(vars)) bindings[name] = { type: 'plain_text', value: String(value) };
  const worker = await unstable_startWorker({
    config: CONFIG_PATH,
    bindings,
    dev: { server: { hostname: '127.0.0.1', port }, inspector: false, persist: persistDir, watch: false, logLevel: 'warn' },
  });
  await worker.ready;
  const url = await worker.url;
  serveUntilStopped(url.href, () => worker.dispose());
}

if (process.argv[1] === SELF && process.argv[2]) {
  runChild(process.argv[2]).catch((err) => {
    process.stderr.write(`local edge failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
