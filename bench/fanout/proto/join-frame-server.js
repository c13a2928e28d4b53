// Prototype (not the product): the real server's stack (Fastify + @fastify/websocket, same
// options) greeting every new viewer with the current ≈18 KB snapshot frame, either
//   per-join: encodeTextFrame(json) for each viewer — what hub.addWebSocket does today
//             (sendOne → encoders.ws per call), or
//   cached:   one frame per seq, written to every joiner.
// join-frame-memory.js compares the two server RSS figures after a full GC.
//
// argv: --mode per-join|cached --score FILE   (run with --expose-gc)

import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { createShowEngine } from '#core/engine/engine.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { loadScoreFile, encodeTextFrame } from '../../../local-server/index.js';
import { serveParent, tellParent } from '../../lib/child-ipc.js';

const { values } = parseArgs({ options: { mode: { type: 'string' }, score: { type: 'string' } } });
const now = () => performance.timeOrigin + performance.now();
const loaded = await loadScoreFile(/** @type {string} */ (values.score));
if (!loaded.ok) throw new Error(`score ${values.score}: ${JSON.stringify(loaded.problems)}`);
const engine = createShowEngine({ score: loaded.score, now, setTimer: () => 0, clearTimer: () => {} });
const stream = createStateStream({ epoch: 'proto', state: engine.state(), now });
const json = stream.snapshot().json;
const cachedFrame = encodeTextFrame(json);

const app = Fastify({ logger: false });
await app.register(websocket, { options: { maxPayload: 4096, perMessageDeflate: false, clientTracking: false } });
app.get('/time', (request, reply) => reply.type('application/json').send(`{"s":${now()}}`));
app.get('/ws', { websocket: true }, (socket) => {
  const raw = /** @type {any} */ (socket)._socket;
  raw.write(values.mode === 'cached' ? cachedFrame : encodeTextFrame(json));
  socket.on('message', () => {});
});
await app.listen({ host: '127.0.0.1', port: 0 });

const gc = /** @type {any} */ (globalThis).gc;
serveParent(
  {
    memory() {
      gc?.();
      gc?.();
      return process.memoryUsage();
    },
  },
  { onExit: () => app.close() },
);

const port = /** @type {import('node:net').AddressInfo} */ (app.server.address()).port;
tellParent('ready', {
  audienceUrl: `http://127.0.0.1:${port}`,
  wsUrl: `ws://127.0.0.1:${port}/ws`,
  pid: process.pid,
  snapshotBytes: json.length,
});
