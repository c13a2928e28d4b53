// Prototype (not the product): one fan-out worker of proto-split. It holds a share of the
// viewers' WebSockets — the kernel spreads connections over workers listening on the same port
// with SO_REUSEPORT — and writes each update as ONE pre-built frame to every socket, like the
// real hub, minus the slow-client rules. The primary (split-server.js) runs the score engine
// and sends every envelope over IPC.
//
// argv: --port N

import http from 'node:http';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';
import { encodeTextFrame } from '../../../local-server/index.js';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
/** High-resolution wall clock, identical across processes (t is stamped in the primary). */
const now = () => performance.timeOrigin + performance.now();

/** @type {Set<any>} raw sockets of open viewers */
const sockets = new Set();
let snapshot = { seq: -1, json: '', frame: /** @type {Buffer | null} */ (null) };
/** @type {number[]} */
let durations = [];

const server = http.createServer((req, res) => {
  if (req.url === '/time') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(`{"s":${now()}}`);
  } else {
    res.writeHead(404);
    res.end();
  }
});
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false, maxPayload: 4096 });
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    const raw = /** @type {any} */ (ws)._socket;
    sockets.add(raw);
    ws.once('close', () => sockets.delete(raw));
    // One frame per seq for every joiner: no per-join 18 KB encode (see join-frame-memory.js).
    snapshot.frame ??= encodeTextFrame(snapshot.json);
    raw.write(snapshot.frame);
  });
});

process.on('message', (/** @type {any} */ msg) => {
  if (msg.type === 'update') {
    snapshot = { seq: msg.seq, json: msg.snapshot, frame: null };
    const started = performance.now();
    const frame = encodeTextFrame(msg.json);
    for (const raw of sockets) if (!raw.destroyed) raw.write(frame);
    durations.push(performance.now() - started);
  } else if (msg.type === 'window-start') {
    durations = [];
    process.send?.({ type: 'window-start', clients: sockets.size });
  } else if (msg.type === 'window-end') {
    process.send?.({ type: 'window-end', durations, clients: sockets.size });
  }
});
process.on('disconnect', () => process.exit(0));

server.listen({ port: Number(values.port), host: '127.0.0.1', reusePort: true }, () => process.send?.({ type: 'listening' }));
