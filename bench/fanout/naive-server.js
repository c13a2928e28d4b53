// Benchmark worker: the naive baseline a developer would write first — a plain `ws`
// WebSocketServer with default options, and on every state change a loop of ws.send(string)
// over wss.clients. Default options mean permessage-deflate is OFF (ws servers default to off;
// the ws client offers it, the server declines), so neither side compresses.
//
// Same score engine, same score file and same clock formula as the real server, so the state
// sequence and update rate are identical. Modes:
//   state  (default): each update is JSON.stringify of an envelope carrying the WHOLE state
//          (type "snapshot", ≈ 18 KB for the load-test score), stringified once per update
//          (the ws README broadcast pattern), sent with ws.send per client.
//   delta: the exact delta envelopes the real server sends (core state stream), still with
//          ws.send per client — separates "send less" from "encode once, pre-framed".
// It also answers GET /time like the real server so clients sync clocks the same way.
//
// argv: --score FILE [--mode state|delta]

import http from 'node:http';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, WebSocket } from 'ws';
import { createShowEngine } from '#core/engine/engine.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { loadScoreFile } from '../../local-server/index.js';
import { serveParent, tellParent } from '../lib/child-ipc.js';

const { values } = parseArgs({ options: { score: { type: 'string' }, mode: { type: 'string', default: 'state' } } });
const mode = values.mode;
if (mode !== 'state' && mode !== 'delta') throw new Error(`--mode must be state or delta, not ${mode}`);

// Same formula as createServerClock in local-server/src/server.js.
const base = Date.now() - performance.now();
const now = () => base + performance.now();

const loaded = await loadScoreFile(/** @type {string} */ (values.score));
if (!loaded.ok) throw new Error(`score ${values.score}: ${JSON.stringify(loaded.problems)}`);

const epoch = randomBytes(6).toString('base64url');
let seq = 0;
let current = null;
/** @type {number[]} */
let durations = [];
/** @type {ReturnType<typeof createStateStream> | null} */
let stream = null;

const server = http.createServer((req, res) => {
  if (req.url === '/time') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(`{"s":${now()}}`);
  } else {
    res.writeHead(404);
    res.end();
  }
});
const wss = new WebSocketServer({ server }); // defaults: perMessageDeflate false, clientTracking true

const envelopeOf = (state) => JSON.stringify({ v: 1, type: 'snapshot', epoch, seq, t: now(), data: state });

function onState(state) {
  let message;
  if (mode === 'state') {
    seq += 1;
    current = state;
    message = envelopeOf(state);
  } else {
    const update = /** @type {any} */ (stream).update(state);
    if (!update) return;
    seq = update.seq;
    message = update.json;
  }
  const started = performance.now();
  for (const client of wss.clients) {
    if (client.readyState === WebSocket.OPEN) client.send(message);
  }
  durations.push(performance.now() - started);
}

const engine = createShowEngine({
  score: loaded.score,
  now,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(/** @type {any} */ (handle)),
  onState: (state) => {
    if (current !== null || stream !== null) onState(state);
  },
  // Loop the piece like the real-server worker does.
  onTransport: (transport) => {
    if (transport === 'stopped' && (current !== null || stream !== null)) setTimeout(() => engine.play(), 0);
  },
});
current = engine.state();
if (mode === 'delta') stream = createStateStream({ epoch, state: current, now });

// A new viewer gets the current state at once (what any dashboard does).
wss.on('connection', (ws) => {
  ws.send(mode === 'state' ? envelopeOf(current) : /** @type {any} */ (stream).snapshot().json);
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
engine.play();

serveParent(
  {
    'window-start': () => {
      durations = [];
      return { seq, clients: { ws: wss.clients.size } };
    },
    'window-end': () => ({ seq, durations, clients: { ws: wss.clients.size } }),
    memory: () => process.memoryUsage(),
    seq: () => ({ seq }),
  },
  {
    onExit: () => {
      engine.dispose();
      for (const ws of wss.clients) ws.terminate();
      server.close();
    },
  },
);

const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
tellParent('ready', {
  impl: mode === 'state' ? 'naive' : 'naive-delta',
  audienceUrl: `http://127.0.0.1:${port}`,
  controlUrl: null,
  wsUrl: `ws://127.0.0.1:${port}/`,
  pid: process.pid,
});
