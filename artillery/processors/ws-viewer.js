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
// sends {"type":"resync"} (docs/reference/audience-protocol.md#endpoints) and waits for the snapshot.

import { planStay } from './lib/stay-plan.js';
import { createViewerMeter, Metric } from './lib/viewer-meter.js';

const RESYNC = '{"type":"resync"}';

/**
 * Follow the show on `context.ws` as a viewer: plan the stay (context.vars.stayFor), measure every
 * state frame, ask for a snapshot after a gap, count a drop. Shared by the processors of phones
 * that do more (vote-storm.js).
 * @param {any} context Artillery's VU context (its `ws`)
 * @param {any} events
 * @param {object} [hooks]
 * @param {Record<string, unknown>} [hooks.fields] more session state (kept in context.tuttiWs)
 * @param {(text: string, receivedAt: number) => boolean} [hooks.intercept] a frame of the caller's: true keeps it from the meter
 * @param {(text: string) => void} [hooks.afterState] after each state frame was measured
 */
export function followShow(context, events, { fields = {}, intercept = () => false, afterState = () => {} } = {}) {
  const { measureFrom } = planStay(context.vars);
  const meter = createViewerMeter({ events, measureFrom, startedAt: Date.now() });
  const ws = context.ws;
  const session = { ...fields, meter, finishing: false, closed: null };
  context.tuttiWs = session;

  ws.on('message', (data, isBinary) => {
    const receivedAt = Date.now();
    if (isBinary) return;
    const text = String(data);
    if (intercept(text, receivedAt)) return;
    const verdict = meter.text(text, receivedAt, data.length);
    if (verdict === 'resync' && ws.readyState === ws.OPEN) ws.send(RESYNC);
    afterState(text);
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
  return session;
}

/**
 * The end of a viewer's stay: a viewer that never got a snapshot or whose socket was closed under
 * it failed (throws).
 * @param {any} context
 * @param {string} step the calling step's name, for the error when followShow never ran
 */
export function endStay(context, step) {
  const session = context.tuttiWs;
  if (!session) throw new Error(`${step} ran without its watch step`);
  session.finishing = true;
  if (session.closed) throw new Error(`ws closed early (${session.closed.code})`);
  if (!session.meter.joined()) throw new Error('ws: no snapshot received');
  return session;
}

/** Attach the listeners and plan the stay (context.vars.stayFor). */
export function wsWatch(context, events, done) {
  followShow(context, events);
  done();
}

/**
 * Leave: a viewer that never got a snapshot or whose socket was closed under it failed.
 * Async on purpose: the ws engine ignores errors passed to a callback-style function step.
 */
export async function wsFinish(context) {
  endStay(context, 'wsFinish');
}
