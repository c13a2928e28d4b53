// The two kinds of streaming client the hub writes to (hub.js), as Sink records: a WebSocket
// (written to on its raw TCP socket with pre-built frames, pinged by the liveness sweep) and an
// SSE response. Each one leaves the registry when its connection closes.

import { rawSocketOf } from './ws-frame.js';

/**
 * @typedef {import('./hub.js').Sink} Sink
 * @typedef {import('./hub.js').StreamName} StreamName
 */

/**
 * A WebSocket viewer; pongs mark it alive, its close removes it.
 * @param {import('ws').WebSocket} ws
 * @param {StreamName} group
 * @param {boolean} counted false for the console's latency probe
 * @param {(sink: Sink) => void} onClose
 * @returns {Sink}
 */
export function webSocketSink(ws, group, counted, onClose) {
  // permessage-deflate is only negotiated on the lean stream (routes/ws.js).
  const { socket, deflate } = rawSocketOf(ws);
  /** @type {Sink} */
  const sink = {
    transport: 'ws',
    group,
    encoding: deflate ? 'wsz' : 'ws',
    out: socket,
    stale: false,
    staleSince: 0,
    alive: true,
    ws,
    counted,
    close: () => ws.terminate(),
  };
  ws.on('pong', () => {
    sink.alive = true;
  });
  ws.once('close', () => onClose(sink));
  return sink;
}

/**
 * An SSE viewer (headers already written); its close removes it.
 * @param {import('node:http').ServerResponse} res
 * @param {StreamName} group
 * @param {(sink: Sink) => void} onClose
 * @returns {Sink}
 */
export function eventStreamSink(res, group, onClose) {
  /** @type {Sink} */
  const sink = {
    transport: 'sse',
    group,
    encoding: 'sse',
    out: /** @type {any} */ (res),
    stale: false,
    staleSince: 0,
    alive: true,
    counted: true,
    close: () => res.destroy(),
  };
  res.once('close', () => onClose(sink));
  return sink;
}
