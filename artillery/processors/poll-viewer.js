// A phone on the polling transport, as ZScore's clients polled: every 500 ms
// `GET /poll?since=SEQ` (no `since` on the first poll and after a gap or a new epoch, which the
// server answers with a snapshot). Runs on the `http` engine so every poll also lands in
// Artillery's http.response_time / http.codes — the figures ZScore's JMeter test reported.
//
//   - flow:
//       - function: pollStart                  # plan the stay; first URL is /poll
//       - loop:
//           - get:
//               url: "{{ pollPath }}"
//               afterResponse: pollReceived    # latency for every new envelope
//           - think: "{{ pollPause }}"          # keeps a fixed 500 ms period, not 500 ms + RTT
//         whileTrue: pollAgain                 # until the common leave time (or `count:` polls)
//       - function: pollFinish                 # fail the VU if a poll failed or it never joined
//
// Variables: pollEvery (ms, default 500), plus those of lib/stay-plan.js.

import { planStay } from './lib/stay-plan.js';
import { createViewerMeter, Metric } from './lib/viewer-meter.js';
import { headOf } from '#core/protocol/envelope-head.js';

/** Set up the meter and the first URL. */
export function pollStart(context, events, done) {
  const { leaveAt, measureFrom } = planStay(context.vars);
  const every = Math.max(10, Number(context.vars.pollEvery) || 500);
  const now = Date.now();
  context.tuttiPoll = { meter: createViewerMeter({ events, measureFrom, startedAt: now }), leaveAt, every, nextDue: now, failures: [] };
  context.vars.pollPath = '/poll';
  context.vars.pollPause = '0ms';
  done();
}

/** afterResponse hook of the poll request. */
export function pollReceived(req, res, context, events, done) {
  const receivedAt = Date.now();
  const poll = context.tuttiPoll;
  const { meter } = poll;
  poll.nextDue += poll.every;
  context.vars.pollPause = `${Math.max(0, Math.round(poll.nextDue - receivedAt))}ms`;
  if (res.statusCode !== 200) {
    poll.failures.push(`HTTP ${res.statusCode}`);
    return done();
  }
  let list;
  try {
    list = JSON.parse(res.body);
  } catch {
    list = null;
  }
  if (!Array.isArray(list)) {
    poll.failures.push('not a JSON array');
    events.emit('error', 'poll: body is not a JSON array');
    return done();
  }
  let resync = false;
  for (const value of list) {
    const head = headOf(value);
    if (!head) continue;
    const verdict = meter.envelope(head, receivedAt, 0);
    if (verdict === 'resync') {
      resync = true;
      break;
    }
  }
  if (list.length) events.emit('counter', Metric.BYTES, res.body.length); // the whole array, once
  const seq = meter.tracker.seq();
  context.vars.pollPath = resync || !meter.tracker.inStep() || seq < 0 ? '/poll' : `/poll?since=${seq}`;
  done();
}

/** `whileTrue` of the poll loop: keep polling until the common leave time. */
export function pollAgain(context, next) {
  next(Date.now() + poll(context).every <= poll(context).leaveAt);
}

/** Leave: any failed poll fails the VU (so `maxErrorRate` sees it). */
export async function pollFinish(context) {
  const { meter, failures } = poll(context);
  if (failures.length) throw new Error(`poll failed (${failures[0]})`);
  if (!meter.joined()) throw new Error('poll: no snapshot received');
}

function poll(context) {
  if (!context.tuttiPoll) throw new Error('pollStart must run before the poll loop');
  return context.tuttiPoll;
}
