// GET /ws: the WebSocket transport. The hub writes pre-built frames; this file only handles
// what a viewer may send (ping, resync) and rejects everything else (SPEC §3).

import { parseClientFrame, encodePong, CloseCode } from '#core/protocol/envelope.js';
import { BadInput } from '../metrics.js';

/** A viewer sends a ping every few seconds at most; anything far above that is a flood. */
const MAX_FRAMES_PER_SECOND = 20;

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: ReturnType<typeof import('../show.js').createShow>, metrics: import('../metrics.js').Metrics, now: () => number, overflow: import('../overflow.js').Overflow }} options
 */
export default async function wsRoutes(app, { show, metrics, now, overflow }) {
  app.get('/ws', { websocket: true }, (socket) => {
    if (overflow.full()) {
      overflow.count('ws');
      socket.close(CloseCode.TRY_AGAIN_LATER, overflow.reason());
      return;
    }
    const sink = show.hub.addWebSocket(socket);
    let windowStart = now();
    let framesInWindow = 0;

    const reject = (source, code, reason) => {
      metrics.badInput.inc({ source });
      socket.close(code, reason);
    };

    socket.on('message', (data, isBinary) => {
      const t = now();
      if (t - windowStart >= 1000) {
        windowStart = t;
        framesInWindow = 0;
      }
      framesInWindow += 1;
      if (framesInWindow > MAX_FRAMES_PER_SECOND) return reject(BadInput.WS_FLOOD, CloseCode.POLICY_VIOLATION, 'too many frames');
      if (isBinary) return reject(BadInput.WS_BINARY, CloseCode.POLICY_VIOLATION, 'binary frames are not accepted');
      const parsed = parseClientFrame(data.toString());
      if (parsed.ok === false) return reject(BadInput.WS_FRAME, CloseCode.POLICY_VIOLATION, /** @type {any} */ (parsed).reason);
      const frame = /** @type {any} */ (parsed).frame;
      if (frame.type === 'ping') socket.send(encodePong(frame.id, frame.c, now()));
      else show.hub.resync(sink);
    });

    // ws reports oversize frames (maxPayload → close 1009) and invalid UTF-8 (1007) as errors.
    socket.on('error', (err) => {
      const code = /** @type {any} */ (err).code;
      metrics.badInput.inc({ source: code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? BadInput.WS_OVERSIZE : BadInput.WS_FRAME });
    });
  });
}
