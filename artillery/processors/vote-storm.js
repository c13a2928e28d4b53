// A phone that votes (README.md, "Audience voices"), for Artillery's `ws` engine: it follows the
// show like ws-viewer.js and, whenever a prompt reaches it, votes once for a random option at a
// random moment of the first 2 s (never in the last 100 ms before the close), with a device id of
// its own. Records, besides the viewer metrics:
//   tutti.votes_sent       counter: votes sent
//   tutti.votes_counted    counter: answered {"ok":true}
//   tutti.votes_refused    counter: answered {"ok":false} (closed, rate, …)
//   tutti.vote_answer_ms   histogram: vote sent → answer
//
//   - engine: ws
//     flow:
//       - function: voteWatch
//       - think: "{{ stayFor }}"
//       - function: voteFinish

import { randomBytes } from 'node:crypto';
import { planStay } from './lib/stay-plan.js';
import { createViewerMeter, Metric } from './lib/viewer-meter.js';

const RESYNC = '{"type":"resync"}';
const VOTE_WITHIN_MS = 2000;

export const VoteMetric = Object.freeze({
  SENT: 'tutti.votes_sent',
  COUNTED: 'tutti.votes_counted',
  REFUSED: 'tutti.votes_refused',
  ANSWER: 'tutti.vote_answer_ms',
});

/** Attach the listeners, plan the stay, and vote on every prompt that arrives. */
export function voteWatch(context, events, done) {
  const { measureFrom } = planStay(context.vars);
  const meter = createViewerMeter({ events, measureFrom, startedAt: Date.now() });
  const ws = context.ws;
  const device = randomBytes(16).toString('base64url');
  const session = { meter, finishing: false, closed: null, voted: new Set(), sentAt: new Map(), timers: new Set() };
  context.tuttiWs = session;
  for (const name of Object.values(VoteMetric)) if (name !== VoteMetric.ANSWER) events.emit('counter', name, 0);

  function maybeVote(text) {
    const key = /"key":"([A-Za-z0-9_~-]+)"/.exec(text)?.[1];
    if (!key || session.voted.has(key)) return;
    const closes = Number(/"closes":(\d+)/.exec(text)?.[1]);
    if (!Number.isFinite(closes) || /"closed":true/.test(text)) return;
    session.voted.add(key);
    const room = Math.min(VOTE_WITHIN_MS, closes - Date.now() - 100);
    if (room <= 0) return;
    const option = ['a', 'b', 'c'][Math.floor(Math.random() * 3)];
    const timer = setTimeout(() => {
      session.timers.delete(timer);
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify({ type: 'vote', key, option, device }));
      session.sentAt.set(key, Date.now());
      events.emit('counter', VoteMetric.SENT, 1);
    }, Math.random() * room);
    session.timers.add(timer);
  }

  ws.on('message', (data, isBinary) => {
    const receivedAt = Date.now();
    if (isBinary) return;
    const text = String(data);
    if (text.startsWith('{"type":"voted"')) {
      const key = /"key":"([^"]+)"/.exec(text)?.[1];
      const sent = key ? session.sentAt.get(key) : undefined;
      if (sent !== undefined) events.emit('histogram', VoteMetric.ANSWER, receivedAt - sent);
      events.emit('counter', text.includes('"ok":true') ? VoteMetric.COUNTED : VoteMetric.REFUSED, 1);
      return;
    }
    const verdict = meter.text(text, receivedAt, data.length);
    if (verdict === 'resync' && ws.readyState === ws.OPEN) ws.send(RESYNC);
    if (text.includes('"vote":')) maybeVote(text);
  });
  ws.on('close', (code, reason) => {
    if (session.finishing) return;
    session.closed = { code, reason: String(reason) };
    events.emit('counter', Metric.DROPS, 1);
  });
  ws.on('error', (err) => {
    if (!session.finishing) events.emit('error', `ws: ${err.code ?? err.message}`);
  });
  done();
}

/** Leave: as ws-viewer.js's wsFinish (a viewer that never joined or was dropped failed). */
export async function voteFinish(context) {
  const session = context.tuttiWs;
  if (!session) throw new Error('voteFinish ran without voteWatch');
  session.finishing = true;
  for (const timer of session.timers) clearTimeout(timer);
  if (session.closed) throw new Error(`ws closed early (${session.closed.code})`);
  if (!session.meter.joined()) throw new Error('ws: no snapshot received');
}
