// The edge refuses permessage-deflate on its WebSockets (docs/explanation/lean-stream.md#websocket-compression)
// : with it, workerd compresses every message once per viewer socket, which on the
// operator bench made an action 4–10× slower to reach 5,000 phones. The refusal is the worker's
// compatibility flag `no_web_socket_compression` (edge-worker/wrangler.jsonc), so it is checked in
// workerd itself — the runtime Cloudflare runs — with the worker's own compatibility date and
// flags: locally Miniflare's entry worker sits in front of the edge and negotiates compression
// with the client on its own, so the local edge cannot show it. The same runtime with the flag
// left out negotiates compression: the check can see the difference.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { freePort } from '../support/free-port.js';

const WORKERD = fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../edge-worker/wrangler.jsonc', import.meta.url));

/** The worker's compatibility date and flags, read by wrangler's own config reader. */
async function edgeCompatibility() {
  const { unstable_readConfig } = await import('wrangler');
  const config = unstable_readConfig({ config: CONFIG });
  return { date: config.compatibility_date, flags: config.compatibility_flags ?? [] };
}

/** A worker that accepts every WebSocket and sends one message, as the shards do. */
const WORKER = `export default {
  fetch() {
    const [client, server] = Object.values(new WebSocketPair());
    server.accept();
    server.send('tutti '.repeat(200));
    return new Response(null, { status: 101, webSocket: client });
  },
};`;

/**
 * Run the worker in workerd with the given compatibility settings; resolve with what a client
 * offering permessage-deflate (as browsers do) negotiated, and the size of the message it got.
 * @param {{ date: string, flags: string[] }} compatibility
 */
async function negotiated({ date, flags }) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-workerd-'));
  const port = await freePort();
  writeFileSync(join(dir, 'worker.js'), WORKER);
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "${date}",
  compatibilityFlags = [${flags.map((flag) => JSON.stringify(flag)).join(', ')}],
);
`,
  );
  const workerd = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  workerd.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await connectOnce(port);
      } catch (error) {
        if (attempt >= 100 || workerd.exitCode !== null) throw new Error(`workerd did not serve: ${error}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    workerd.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {number} port */
function connectOnce(port) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    ws.once('error', reject);
    ws.once('message', (data, isBinary) => {
      resolve({ extensions: ws.extensions, text: isBinary ? null : data.toString() });
      ws.close();
    });
  });
}

test('the edge worker refuses permessage-deflate in workerd; without its flag workerd would compress', async () => {
  const edge = await edgeCompatibility();
  expect(edge.flags).toContain('no_web_socket_compression');
  const refused = await negotiated(edge);
  expect(refused).toEqual({ extensions: '', text: 'tutti '.repeat(200) });
  const withoutFlag = await negotiated({ ...edge, flags: edge.flags.filter((flag) => flag !== 'no_web_socket_compression') });
  expect(withoutFlag).toEqual({ extensions: 'permessage-deflate', text: 'tutti '.repeat(200) });
}, 60_000);
