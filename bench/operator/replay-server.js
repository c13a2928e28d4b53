// Benchmark worker: the baseline of `npm run bench:operator` — the naive loop a developer writes
// first (a plain `ws` WebSocketServer with default options, so no compression, and
// `ws.send(text)` to every client), replaying the exact envelopes one phone received from the
// real server in the same run. The phones (viewers.js) are the same, apply the same bytes and
// watch for the same fields, so the difference between the two cases is the server's.
//
// Commands: load {snapshot, steps: [{ before: [text], action: text }]} → before k (send the
// envelopes between two actions: the undo, beats) → action k (send the action's envelope).

import http from 'node:http';
import { WebSocketServer, WebSocket } from 'ws';
import { serveParent, tellParent } from '../lib/child-ipc.js';

/** @type {{ snapshot: string, steps: Array<{ before: string[], action: string }> } | null} */
let script = null;
const server = http.createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, path: '/ws' });

/** Every client gets the same string: the ws README's broadcast loop. */
function broadcast(text) {
  for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.send(text);
}

wss.on('connection', (ws) => {
  if (script) ws.send(script.snapshot);
  else ws.close(1013, 'no script loaded');
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));

serveParent(
  {
    load(loaded) {
      script = loaded;
      return { steps: loaded.steps.length };
    },
    before(k) {
      for (const text of /** @type {any} */ (script).steps[k].before) broadcast(text);
      return { sent: /** @type {any} */ (script).steps[k].before.length };
    },
    action(k) {
      broadcast(/** @type {any} */ (script).steps[k].action);
      return { clients: wss.clients.size };
    },
  },
  {
    onExit: () => {
      for (const ws of wss.clients) ws.terminate();
      server.close();
    },
  },
);

const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
tellParent('ready', { wsUrl: `ws://127.0.0.1:${port}/ws`, pid: process.pid });
