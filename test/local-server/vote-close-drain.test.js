// Votes already waiting in the server's sockets when the prompt closes still count (README.md,
// "Audience voices": "and so do those already waiting in its sockets then (a loaded server reads
// late)"). A loaded venue server stalls; when its event loop resumes, the close timer is due in
// the timers phase while the frames that reached the kernel in time are read only in the poll
// phase after it. The vote desk lets that poll phase run before the votes stop (afterReceived in
// local-server/src/votes/vote-desk.js); without it every one of these votes is refused `closed`.
//
// The stall is made for real, in this process (the server runs in it): real WebSocket viewers
// send their votes shortly before the close, and the test then blocks the event loop until well
// past `closes` + LATE_GRACE_MS. On loopback `ws.send` writes into the kernel at once, so when the
// loop resumes the frames are readable and the close timer is due at the same moment. It blocks
// inside a setImmediate callback (the check phase) so that the next phase is the timers phase:
// blocked inside a timer callback instead, Node would go on to the poll phase first (the timers
// phase judges what is due by the time it started at) and the case would not arise.
import { afterEach, expect, test } from '@jest/globals';
import { startShow } from '../support/show.js';
import { openWs, waitFor } from '../support/clients.js';
import { writeVoteScore, deviceId } from '../support/vote-score.js';
import { createServerClock } from '../../local-server/src/server.js';
import { LATE_GRACE_MS } from '../../local-server/src/votes/vote-desk.js';

/** Viewers, one vote each (so no per-socket limit applies). Loopback is exempt from --max-per-address. */
const VIEWERS = 40;
/** The votes go out this long before `closes` on the server clock: in time, by a margin. */
const SEND_BEFORE_CLOSE_MS = 30;
/** The stall lasts until this long after `closes` + LATE_GRACE_MS: the close timer is surely due. */
const STALL_PAST_DEADLINE_MS = 150;
/** Bound on any one busy-wait, whatever the clocks do. */
const MAX_SPIN_MS = 3000;

/** @type {Array<() => Promise<unknown> | unknown>} */
const cleanup = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()();
});

/** Block the event loop (this process's, so the server's too) until `clock()` reaches `until`. */
function spinUntil(clock, until) {
  const bound = performance.now() + MAX_SPIN_MS;
  while (clock() < until && performance.now() < bound) { /* stalled, like a loaded server */ }
}

async function metric(show, line) {
  const text = await show.metrics.exposition();
  const found = text.split('\n').find((l) => l.startsWith(line));
  return found ? Number(found.split(' ').pop()) : 0;
}

test('after an event-loop stall across the close, every vote that reached the server in time is counted in the published result', async () => {
  const show = await startShow({ scorePath: writeVoteScore({ reactions: [] }), autoplay: false });
  cleanup.push(() => show.close());
  // The server's clock (performance.now() from a Date.now() base), read the same way in this process.
  const serverNow = createServerClock();
  const viewers = [];
  for (let i = 0; i < VIEWERS; i += 1) {
    const client = await openWs(show.audienceUrl);
    cleanup.push(() => client.ws.terminate());
    viewers.push(client);
  }
  show.show.engine.play();
  const open = await waitFor(() => viewers[0].tracker.state?.vote, 5000, 'the prompt to open');
  const deadline = open.closes + LATE_GRACE_MS;
  await waitFor(() => serverNow() >= open.closes - 250, 5000, 'shortly before the close');

  const stall = await new Promise((resolve) => setImmediate(() => {
    spinUntil(serverNow, open.closes - SEND_BEFORE_CLOSE_MS);
    const sentAt = serverNow();
    const phaseAtSend = show.votes.status()?.phase;
    viewers.forEach((client, i) => client.ws.send(JSON.stringify({ type: 'vote', key: open.key, option: ['c', 'd', 'stay'][i % 3], device: deviceId(i) })));
    spinUntil(serverNow, deadline + STALL_PAST_DEADLINE_MS);
    resolve({ sentAt, phaseAtSend, resumedAt: serverNow() });
  }));
  // The case under test: sent while the prompt was open and before the deadline, and the loop
  // resumed only after the close timer was due.
  expect(stall.phaseAtSend).toBe('open');
  expect(stall.sentAt).toBeLessThan(deadline);
  expect(stall.resumedAt).toBeGreaterThanOrEqual(deadline + STALL_PAST_DEADLINE_MS);

  const replies = await Promise.all(viewers.map((client) => waitFor(() => client.others.find((m) => m.type === 'voted'), 5000, 'the answer to a vote')));
  const refused = replies.filter((r) => !r.ok);
  const final = await waitFor(() => viewers[0].tracker.state?.vote?.closed && viewers[0].tracker.state.vote, 5000, 'the result');
  // What the room sees: the published result holds all 40 (c: 14, d: 13, stay: 13), and no phone was told `closed`.
  expect({ refused: refused.length, total: final.total, counts: final.counts }).toEqual({ refused: 0, total: VIEWERS, counts: [14, 13, 13] });
  expect(final).toMatchObject({ key: open.key, winner: 'c' });
  expect(await metric(show, 'tutti_votes_total{outcome="counted"}')).toBe(VIEWERS);
  expect(await metric(show, 'tutti_votes_total{outcome="closed"}')).toBe(0);
}, 30_000);
