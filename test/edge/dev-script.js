// The real `npm run edge:dev` script (edge-worker/scripts/dev.js) in a child process, for the
// edge:dev suites: its terminal lines, the URL and token it prints, and a bounded stop.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processName, processTree } from '../../bench/lib/process-tree.js';
import { waitFor } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEV_SCRIPT = fileURLToPath(new URL('../../edge-worker/scripts/dev.js', import.meta.url));

/**
 * Start dev.js with `args` and wait until it printed its URL and token and answers /healthz.
 * @param {string[]} args e.g. ['--port', '8790', '--persist-to', dir]
 */
export async function startDevScript(args) {
  const child = spawn(process.execPath, [DEV_SCRIPT, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  /** every line it printed, stdout and stderr */
  const output = [];
  let base;
  let token;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      base ??= /^edge worker: (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      token ??= /--edge-token (\S+)/.exec(line)?.[1];
    });
  }
  /** @type {Promise<{ code: number | null, signal: string | null }>} */
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await waitFor(() => (base && token) || child.exitCode !== null, {
    timeoutMs: 60_000,
    what: `edge:dev to print its URL and token:\n${output.join('\n')}`,
  });
  if (!base) throw new Error(`edge:dev exited (code ${child.exitCode}) before it served:\n${output.join('\n')}`);
  // It may print the URL before it serves: wait for an answer.
  await waitFor(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, {
    timeoutMs: 60_000,
    intervalMs: 250,
    what: 'edge:dev to answer /healthz',
  });
  return {
    child,
    output,
    exited,
    base,
    token,
    /** What openPublisher / openViewer (helpers.js) need. */
    edge: { url: base, wsUrl: base.replace(/^http/, 'ws'), token },
    /** The workerd processes below dev.js right now. */
    workerdPids: () => processTree(child.pid).filter((pid) => processName(pid) === 'workerd'),
    /** SIGTERM, SIGKILL after 10 s if it is still there. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
