// What `--start-local` starts: a real `tutti serve` child (the same command QA would type) and,
// for edge scenarios without --target, the edge worker on local workerd. Only on 127.0.0.1,
// only what was asked for, and always stopped again.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TUTTI_BIN = `${ROOT}local-server/bin/tutti.js`;
export const LOAD_SCORE = `${ROOT}scores/union-rose-load.score.json`;
const LOCAL_EDGE = `${ROOT}edge-worker/scripts/local-edge.js`;
const DEV_VARS = `${ROOT}edge-worker/.dev.vars`;

/**
 * Start `tutti serve` on 127.0.0.1 with ports chosen by the system, playing at once.
 * @param {{ score?: string, edgeUrl?: string | null, edgeToken?: string | null, log?: (line: string) => void, timeoutMs?: number }} [options]
 * @returns {Promise<{ url: string, controlUrl: string | null, token: string, pid: number, output: string[], stop: () => Promise<void> }>}
 */
export async function startTuttiServe({ score = LOAD_SCORE, edgeUrl = null, edgeToken = null, log = () => {}, timeoutMs = 30_000 } = {}) {
  const token = randomBytes(18).toString('base64url');
  const args = [
    TUTTI_BIN,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--control-port',
    '0',
    '--autoplay',
    '--no-resume',
    '--no-log-file',
    '--score',
    score,
    `--token=${token}`, // one argument: a base64url token may start with "--"
  ];
  if (edgeUrl) args.push('--edge', edgeUrl, '--edge-token', edgeToken ?? '');
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const output = [];
  const keep = (line) => {
    output.push(line);
    if (output.length > 200) output.shift();
  };
  createInterface({ input: child.stderr }).on('line', (line) => {
    keep(line);
    log(line);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  let controlUrl = null;
  let audienceUrl = null;
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`tutti serve did not print its URL within ${timeoutMs / 1000} s:\n${output.join('\n')}`)),
      timeoutMs,
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      keep(line);
      const control = /Control API[^:]*:\s+(http\S+?)\/api\/status/.exec(line);
      if (control) controlUrl = control[1];
      const audience = /Audience on this machine:\s+(http\S+)/.exec(line);
      if (audience) audienceUrl = audience[1].replace(/\/+$/, '');
      // Both are printed at start-up; the control URL lets run.js keep the show playing.
      if (audienceUrl && controlUrl) {
        clearTimeout(timer);
        resolve(audienceUrl);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`tutti serve exited (${code}) before it was ready:\n${output.join('\n')}`));
    });
  });

  let stopping = null;
  return {
    url,
    get controlUrl() {
      return controlUrl;
    },
    token,
    pid: child.pid ?? -1,
    output,
    stop() {
      stopping ??= stopChild(child, exited);
      return stopping;
    },
  };
}

/**
 * The edge worker on local workerd (edge-worker/scripts/local-edge.js), with a fresh token, on
 * the runtime `npm run edge:dev` uses (one workerd, no wrangler dev proxy: thousands of viewers
 * fit under the open-files limit, docs/explanation/edge-design.md).
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function startLocalEdgeWorker({ log = () => {} } = {}) {
  if (!existsSync(LOCAL_EDGE)) {
    throw new Error(
      'edge-worker/scripts/local-edge.js is missing, so the edge cannot be started here; start it yourself (npm run edge:dev) and pass --target',
    );
  }
  const { startLocalEdge } = await import(LOCAL_EDGE);
  const token = randomBytes(16).toString('hex');
  const edge = await startLocalEdge({ token, persistDir: false, log, direct: true });
  return { url: edge.url, token, pid: edge.pid, stop: () => edge.stop() };
}

/** PUBLISH_TOKEN from edge-worker/.dev.vars (what `npm run edge:dev` uses), or null. */
export function devPublishToken() {
  if (!existsSync(DEV_VARS)) return null;
  const m = /^\s*PUBLISH_TOKEN\s*=\s*"?([^"\n]+)"?\s*$/m.exec(readFileSync(DEV_VARS, 'utf8'));
  return m ? m[1].trim() : null;
}

/**
 * Wait until `base`/poll answers with a snapshot: the server is up and (through an edge) the
 * show's state has arrived.
 * @param {string} base
 * @param {{ timeoutMs?: number }} [options]
 */
export async function waitForShow(base, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/poll`, { signal: AbortSignal.timeout(5000) });
      const body = res.ok ? await res.json() : null;
      // An edge with no venue publishing answers with its own "none"/"lost" snapshot
      // (docs/reference/publisher-protocol.md#venue-status): that is not the show yet.
      const venue = Array.isArray(body) ? body[0]?.data?.venue?.status : undefined;
      if (Array.isArray(body) && body.length > 0 && venue !== 'none' && venue !== 'lost') return body[0];
      last = !res.ok
        ? `HTTP ${res.status}`
        : venue
          ? `the edge says the venue is "${venue}" (is a show publishing to it?)`
          : 'no state yet (is a show publishing to it?)';
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${base}/poll did not answer with the show's state within ${timeoutMs / 1000} s (${last})`);
}

/**
 * Keep a show we started playing for as long as the test runs: the load score lasts about four
 * minutes, and a viewer test that outlives the piece would measure silence. When the piece ends
 * (transport "stopped") it is played again from the top (same epoch; seq just goes on).
 * @param {{ controlUrl: string, token: string, log?: (line: string) => void, everyMs?: number }} options
 * @returns {{ stop: () => void, restarts: () => number }}
 */
export function keepPlaying({ controlUrl, token, log = () => {}, everyMs = 1000 }) {
  let restarts = 0;
  let busy = false;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const status = await (await fetch(`${controlUrl}/api/status`, { headers, signal: AbortSignal.timeout(5000) })).json();
      if (status.transport === 'stopped') {
        await fetch(`${controlUrl}/api/transport`, {
          method: 'POST',
          headers,
          body: '{"action":"play"}',
          signal: AbortSignal.timeout(5000),
        });
        restarts += 1;
        log('the score ended; playing it again from the top');
      }
    } catch {
      // The next tick tries again; the load test itself reports a server that stopped answering.
    } finally {
      busy = false;
    }
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), restarts: () => restarts };
}

/**
 * Check that the show at `base` is moving (a new envelope within `withinMs`): a viewer test
 * against a stopped or finished show would measure nothing.
 * @param {string} base
 * @param {{ withinMs?: number }} [options]
 */
export async function expectAdvancing(base, { withinMs = 4000 } = {}) {
  const first = await (await fetch(`${base}/poll`, { signal: AbortSignal.timeout(5000) })).json();
  const seq = first[0]?.seq ?? 0;
  const transport = first[0]?.data?.transport;
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const wait = Math.max(1, Math.min(1000, deadline - Date.now()));
    const res = await fetch(`${base}/poll?since=${seq}&wait=${wait}`, { signal: AbortSignal.timeout(wait + 5000) });
    const list = res.ok ? await res.json() : [];
    if (Array.isArray(list) && list.some((e) => e.seq > seq || e.epoch !== first[0]?.epoch)) return;
    await new Promise((resolve) => setTimeout(resolve, 250)); // a server that ignores `wait`
  }
  const why =
    transport === 'playing'
      ? 'its state says "playing" but nothing new arrives: is the show still publishing to it (tutti serve --edge … --edge-token …)?'
      : `transport "${transport ?? 'unknown'}": start it (tutti serve --autoplay, or POST /api/transport {"action":"play"} on its control port)`;
  throw new Error(`the show at ${base} is not moving (seq stayed at ${seq} for ${withinMs / 1000} s; ${why}); viewer tests measure pushes`);
}

async function stopChild(child, exited) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}
