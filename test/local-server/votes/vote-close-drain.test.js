// Votes already waiting in the server's sockets when the prompt closes still count (docs/reference/audience-protocol.md#audience-voices
// : "and so do those already waiting in its sockets then (a loaded server reads
// late)"). A loaded venue server stalls; when its event loop resumes, the close timer is due in
// the timers phase while the frames that reached the kernel in time are read only in the poll
// phase after it. The vote desk lets the poll phases run before the votes stop (afterReceived in
// local-server/src/votes/vote-desk.js); without it every one of these votes is refused `closed`.
//
// The stall is made for real, in this process (the server runs in it): the votes go out shortly
// before the close, and the test blocks the event loop until well past `closes` + CLOSE_DRAIN_MS.
// On loopback a write is in the server's kernel at once, so when the loop resumes the votes are
// readable and the close timer is due at the same moment. WebSocket viewers send from this
// thread just before it blocks; polling phones (POST /vote) send from a worker thread while it is
// blocked, on keep-alive connections and on new ones. The server accepts one waiting connection
// per loop iteration (libuv) and reads it in the next, so a vote on the 20th new connection (each
// behind another new connection asking GET /time) is read some 40 iterations after the close
// timer: no fixed number of hops covers that, the desk drains until the hops bring in no vote.
// The test blocks inside a setImmediate callback (the check phase) so that the next phase is the
// timers phase: blocked inside a timer callback instead, Node would go on to the poll phase first
// (the timers phase judges what is due by the time it started at) and the case would not arise.
import { Worker } from 'node:worker_threads';
import { afterEach, expect, test } from '@jest/globals';
import { startShow } from '../../support/show.js';
import { openWs, waitFor } from '../../support/clients.js';
import { writeVoteScore, deviceId } from '../../support/vote-score.js';
import { createServerClock } from '../../../local-server/src/server.js';
import { CLOSE_DRAIN_MS } from '../../../local-server/src/votes/close-drain.js';

/** Phones, one vote each (so no per-socket limit applies). Loopback is exempt from --max-per-address and --rate-limit. */
const VIEWERS = 40;
/** The votes go out this long before `closes` on the server clock: in time, by a margin. */
const SEND_BEFORE_CLOSE_MS = 30;
/** The stall lasts until this long after `closes` + CLOSE_DRAIN_MS: the close timer is surely due. */
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
  while (clock() < until && performance.now() < bound) {
    /* stalled, like a loaded server */
  }
}

/** Device i's vote: 40 phones give c 14, d 13, stay 13. */
const voteOf = (key, i) => ({ key, option: ['c', 'd', 'stay'][i % 3], device: deviceId(i) });

/**
 * Inside a setImmediate callback: wait (blocking) until SEND_BEFORE_CLOSE_MS before the close,
 * call `send`, then stall the event loop until STALL_PAST_DEADLINE_MS after the deadline.
 * @returns {Promise<{ startedAt: number, sentAt: number, phaseAtSend: string | undefined, resumedAt: number }>} server-clock times
 */
function stallAcrossClose(show, serverNow, open, send) {
  return new Promise((resolve) =>
    setImmediate(() => {
      const startedAt = serverNow();
      spinUntil(serverNow, open.closes - SEND_BEFORE_CLOSE_MS);
      const sentAt = serverNow();
      const phaseAtSend = show.votes.status()?.phase;
      send();
      spinUntil(serverNow, open.closes + CLOSE_DRAIN_MS + STALL_PAST_DEADLINE_MS);
      resolve({ startedAt, sentAt, phaseAtSend, resumedAt: serverNow() });
    }),
  );
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
  const deadline = open.closes + CLOSE_DRAIN_MS;
  await waitFor(() => serverNow() >= open.closes - 250, 5000, 'shortly before the close');

  const stall = await stallAcrossClose(show, serverNow, open, () => {
    viewers.forEach((client, i) => client.ws.send(JSON.stringify({ type: 'vote', ...voteOf(open.key, i) })));
  });
  // The case under test: sent while the prompt was open and before the deadline, and the loop
  // resumed only after the close timer was due.
  expect(stall.phaseAtSend).toBe('open');
  expect(stall.sentAt).toBeLessThan(deadline);
  expect(stall.resumedAt).toBeGreaterThanOrEqual(deadline + STALL_PAST_DEADLINE_MS);

  const replies = await Promise.all(
    viewers.map((client) => waitFor(() => client.others.find((m) => m.type === 'voted'), 5000, 'the answer to a vote')),
  );
  const refused = replies.filter((r) => !r.ok);
  const final = await waitFor(() => viewers[0].tracker.state?.vote?.closed && viewers[0].tracker.state.vote, 5000, 'the result');
  // What the room sees: the published result holds all 40 (c: 14, d: 13, stay: 13), and no phone was told `closed`.
  expect({ refused: refused.length, total: final.total, counts: final.counts }).toEqual({
    refused: 0,
    total: VIEWERS,
    counts: [14, 13, 13],
  });
  expect(final).toMatchObject({ key: open.key, winner: 'c' });
  expect(await metric(show, 'tutti_votes_total{outcome="counted"}')).toBe(VIEWERS);
  expect(await metric(show, 'tutti_votes_total{outcome="closed"}')).toBe(0);
}, 30_000);

test("POST /vote after the same stall: polling phones' votes waiting on keep-alive connections and on new ones are counted", async () => {
  const show = await startShow({ scorePath: writeVoteScore({ reactions: [] }), autoplay: false });
  cleanup.push(() => show.close());
  const serverNow = createServerClock();
  const watcher = await openWs(show.audienceUrl);
  cleanup.push(() => watcher.ws.terminate());
  show.show.engine.play();
  const open = await waitFor(() => watcher.tracker.state?.vote, 5000, 'the prompt to open');
  const deadline = open.closes + CLOSE_DRAIN_MS;
  const bodies = Array.from({ length: VIEWERS }, (_, i) => JSON.stringify(voteOf(open.key, i)));
  // The server clock is the wall clock advanced monotonically: the worker's Date.now() agrees with it.
  const phones = new Worker(new URL('../../support/vote-poster-thread.js', import.meta.url), {
    workerData: {
      port: show.audiencePort,
      at: open.closes - SEND_BEFORE_CLOSE_MS,
      keepAlive: bodies.slice(0, VIEWERS / 2),
      fresh: bodies.slice(VIEWERS / 2),
    },
  });
  cleanup.push(() => phones.terminate());
  const messages = [];
  phones.on('message', (m) => messages.push(m));
  const fromPhones = (name, what) => waitFor(() => messages.find((m) => name in m)?.[name], 10_000, what);
  await fromPhones('ready', 'the keep-alive connections');
  await waitFor(() => serverNow() >= open.closes - 250, 5000, 'shortly before the close');

  const stall = await stallAcrossClose(show, serverNow, open, () => {});
  const sentAt = await fromPhones('sentAt', 'the votes to be sent');
  // The case under test: every vote reached the server while it was stalled, before the deadline.
  expect(stall.phaseAtSend).toBe('open');
  expect(sentAt).toBeGreaterThan(stall.startedAt);
  expect(sentAt).toBeLessThan(deadline);
  expect(stall.resumedAt).toBeGreaterThanOrEqual(deadline + STALL_PAST_DEADLINE_MS);

  const answers = await fromPhones('answers', 'the answers to the votes');
  const final = await waitFor(() => watcher.tracker.state?.vote?.closed && watcher.tracker.state.vote, 5000, 'the result');
  expect({ refused: answers.filter((status) => status !== '200').length, total: final.total, counts: final.counts }).toEqual({
    refused: 0,
    total: VIEWERS,
    counts: [14, 13, 13],
  });
  expect(await metric(show, 'tutti_votes_total{outcome="counted"}')).toBe(VIEWERS);
  expect(await metric(show, 'tutti_votes_total{outcome="closed"}')).toBe(0);
}, 30_000);
