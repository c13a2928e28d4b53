// A phone that votes (docs/reference/audience-protocol.md#audience-voices), for Artillery's `ws` engine: it follows the
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
import { endStay, followShow } from './ws-viewer.js';
const VOTE_WITHIN_MS = 2000;

export const VoteMetric = Object.freeze({
  SENT: 'tutti.votes_sent',
  COUNTED: 'tutti.votes_counted',
  REFUSED: 'tutti.votes_refused',
  ANSWER: 'tutti.vote_answer_ms',
});

/** Attach the listeners, plan the stay, and vote on every prompt that arrives. */
export function voteWatch(context, events, done) {
  const ws = context.ws;
  const device = randomBytes(16).toString('base64url');
  const fields = { voted: new Set(), sentAt: new Map(), timers: new Set() };
  for (const name of Object.values(VoteMetric)) if (name !== VoteMetric.ANSWER) events.emit('counter', name, 0);

  function maybeVote(text) {
    if (!text.includes('"vote":')) return;
    const key = /"key":"([A-Za-z0-9_~-]+)"/.exec(text)?.[1];
    if (!key || fields.voted.has(key)) return;
    const closes = Number(/"closes":(\d+)/.exec(text)?.[1]);
    if (!Number.isFinite(closes) || /"closed":true/.test(text)) return;
    fields.voted.add(key);
    const room = Math.min(VOTE_WITHIN_MS, closes - Date.now() - 100);
    if (room <= 0) return;
    const option = ['a', 'b', 'c'][Math.floor(Math.random() * 3)];
    const timer = setTimeout(() => {
      fields.timers.delete(timer);
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify({ type: 'vote', key, option, device }));
      fields.sentAt.set(key, Date.now());
      events.emit('counter', VoteMetric.SENT, 1);
    }, Math.random() * room);
    fields.timers.add(timer);
  }

  /** The server's answer to a vote: counted or refused, and how long it took. */
  function answer(text, receivedAt) {
    if (!text.startsWith('{"type":"voted"')) return false;
    const key = /"key":"([^"]+)"/.exec(text)?.[1];
    const sent = key ? fields.sentAt.get(key) : undefined;
    if (sent !== undefined) events.emit('histogram', VoteMetric.ANSWER, receivedAt - sent);
    events.emit('counter', text.includes('"ok":true') ? VoteMetric.COUNTED : VoteMetric.REFUSED, 1);
    return true;
  }

  followShow(context, events, { fields, intercept: answer, afterState: maybeVote });
  done();
}

/** Leave: as ws-viewer.js's wsFinish (a viewer that never joined or was dropped failed). */
export async function voteFinish(context) {
  for (const timer of context.tuttiWs?.timers ?? []) clearTimeout(timer);
  endStay(context, 'voteFinish');
}
