// A phone on the WebSocket transport (GET /ws), for Artillery's `ws` engine. The target is the
// socket URL itself (ws://HOST:PORT/ws; run.js derives it from --target):
//
//   - engine: ws
//     flow:
//       - function: wsWatch                   # listen: latency, messages, resyncs
//       - think: "{{ stayFor }}"              # stay (set by wsWatch; never the `wait` step)
//       - function: wsFinish                  # fail the VU if it never joined or was dropped
//
// wsWatch must be the first step: the engine runs it synchronously from the socket's 'open' event,
// before the snapshot the server sends on connect is read. A `connect:` step first would defer it
// by a tick and the snapshot would be emitted with nobody listening. On a seq gap or a new epoch it
// sends {"type":"resync"} (README.md, "Audience endpoints") and waits for the snapshot.

import { planStay } from './lib/stay-plan.js';
import { createViewerMeter, Metric } from './lib/viewer-meter.js';

const RESYNC = '{"type":"resync"}';

/** Attach the listeners and plan the stay (context.vars.stayFor). */
export function wsWatch(context, events, done) {
  const { measureFrom } = planStay(context.vars);
  const meter = createViewerMeter({ events, measureFrom, startedAt: Date.now() });
  const ws = context.ws;
  const session = { meter, finishing: false, closed: null };
  context.tuttiWs = session;

  ws.on('message', (data, isBinary) => {
    const receivedAt = Date.now();
    if (isBinary) return;
    const verdict = meter.text(String(data), receivedAt, data.length);
    if (verdict === 'resync' && ws.readyState === ws.OPEN) ws.send(RESYNC);
  });
  ws.on('close', (code, reason) => {
    if (session.finishing) return;
    session.closed = { code, reason: String(reason) };
    events.emit('counter', Metric.DROPS, 1);
  });
  // The engine listens for 'error' only until the socket opens; without this a reset after that
  // would be an uncaught exception in the worker.
  ws.on('error', (err) => {
    if (!session.finishing) events.emit('error', `ws: ${err.code ?? err.message}`);
  });
  done();
}

/**
 * Leave: a viewer that never got a snapshot or whose socket was closed under it failed.
 * Async on purpose: the ws engine ignores errors passed to a callback-style function step.
 */
export async function wsFinish(context) {
  const session = context.tuttiWs;
  if (!session) throw new Error('wsFinish ran without wsWatch');
  session.finishing = true;
  if (session.closed) throw new Error(`ws closed early (${session.closed.code})`);
  if (!session.meter.joined()) throw new Error('ws: no snapshot received');
}
