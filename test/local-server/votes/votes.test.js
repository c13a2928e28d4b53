// Audience voices at the venue (docs/reference/audience-protocol.md#audience-voices): real WebSocket viewers and POST
// /vote on a real show server, real UDP for the OSC result. One vote per device id, exactly:
// repeats, a changed mind, a second tab and a reconnect count once; a closed prompt refuses late
// votes; the winner's branch makes the show jump at the next bar line; malformed votes are
// refused and counted.
import { afterEach, expect, test } from '@jest/globals';
import { Server } from 'node-osc';
import { startShow } from '../../support/show.js';
import { openWs, waitFor } from '../../support/clients.js';
import { writeVoteScore, deviceId } from '../../support/vote-score.js';

/** @type {Array<() => Promise<unknown> | unknown>} */
const cleanup = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()();
});

function listenOsc() {
  return new Promise((resolve) => {
    const received = [];
    const server = new Server(0, '127.0.0.1', () => resolve({ server, received, port: server.port }));
    server.on('message', (m) => received.push(m));
  });
}

async function viewer(show) {
  const client = await openWs(show.audienceUrl);
  cleanup.push(() => client.ws.terminate());
  return client;
}

/** Send a vote on a viewer's socket and wait for the server's answer to it. */
async function vote(client, key, option, device) {
  const before = client.others.length;
  client.ws.send(JSON.stringify({ type: 'vote', key, option, device }));
  return waitFor(() => client.others.slice(before).find((m) => m.type === 'voted' && m.key === key), 5000, `answer to ${device}`);
}

const postVote = (show, body, type = 'application/json') =>
  fetch(`${show.audienceUrl}/vote`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function metric(show, line) {
  const text = await show.metrics.exposition();
  const found = text.split('\n').find((l) => l.startsWith(line));
  return found ? Number(found.split(' ').pop()) : 0;
}

test("every phone counts once; the tally and the result reach the state, OSC and /metrics; the winner's branch jumps at the next bar line", async () => {
  const osc = await listenOsc();
  cleanup.push(() => osc.server.close());
  const show = await startShow({ scorePath: writeVoteScore(), autoplay: false, oscTargets: [{ host: '127.0.0.1', port: osc.port }] });
  cleanup.push(() => show.close());
  const viewers = [];
  for (let i = 0; i < 19; i += 1) viewers.push(await viewer(show));
  show.show.engine.play();
  const watcher = viewers[0];
  const open = await waitFor(() => watcher.tracker.state?.vote, 5000, 'the prompt to open');
  expect(open).toMatchObject({
    id: 'path',
    q: 'Which way?',
    counts: [0, 0, 0],
    total: 0,
    options: [
      { id: 'c', label: 'To C' },
      { id: 'd', label: 'To D' },
      { id: 'stay', label: 'Stay' },
    ],
  });
  expect(open.closes - open.opens).toBe(2000); // 8 beats at 240 bpm
  const { key } = open;

  const answers = [];
  // devices 0–9 vote d, 10–14 c, 15–16 stay
  for (let i = 0; i < 17; i += 1) answers.push(vote(viewers[i], key, i < 10 ? 'd' : i < 15 ? 'c' : 'stay', deviceId(i)));
  expect((await Promise.all(answers)).every((a) => a.ok)).toBe(true);
  expect(await vote(viewers[0], key, 'd', deviceId(0))).toMatchObject({ ok: true }); // the same again: counted once
  expect(await vote(viewers[10], key, 'd', deviceId(10))).toMatchObject({ ok: true }); // changed its mind: c → d
  expect(await vote(viewers[17], key, 'c', deviceId(3))).toMatchObject({ ok: true }); // device 3's second tab: d → c
  // device 18 votes, reconnects, votes again: still one vote
  expect(await vote(viewers[18], key, 'stay', deviceId(18))).toMatchObject({ ok: true });
  viewers[18].ws.close();
  const again = await viewer(show);
  expect(await vote(again, key, 'stay', deviceId(18))).toMatchObject({ ok: true });
  // an SSE/poll viewer votes over HTTP
  const posted = await postVote(show, { key, option: 'c', device: deviceId(19) });
  expect(posted.status).toBe(200);
  expect(await posted.json()).toEqual({ type: 'voted', key, ok: true });

  // c: 11–14, 3, 19 → 6; d: 0–2, 4–10 → 10; stay: 15, 16, 18 → 3
  const live = await waitFor(() => watcher.tracker.state?.vote?.total === 19 && watcher.tracker.state.vote, 3000, 'the live tally');
  expect(live.counts).toEqual([6, 10, 3]);
  const final = await waitFor(() => watcher.tracker.state?.vote?.closed && watcher.tracker.state.vote, 5000, 'the close');
  expect(final).toMatchObject({ counts: [6, 10, 3], total: 19, winner: 'd', branch: { bar: 5 } });
  expect(Date.now()).toBeGreaterThan(final.closes);

  // too late
  expect(await vote(viewers[1], key, 'c', deviceId(1))).toEqual({ type: 'voted', key, ok: false, reason: 'closed' });
  expect((await postVote(show, { key, option: 'c', device: deviceId(30) })).status).toBe(409);

  // OSC: one message per option with the final counts
  await waitFor(() => osc.received.filter((m) => m[0] === '/tutti/vote').length === 3, 3000, 'the OSC result');
  expect(osc.received.filter((m) => m[0] === '/tutti/vote')).toEqual([
    ['/tutti/vote', 'path', 'c', 6, 19],
    ['/tutti/vote', 'path', 'd', 10, 19],
    ['/tutti/vote', 'path', 'stay', 3, 19],
  ]);

  // The branch: bar 4 is followed by bar 13 (section D), not bar 5.
  await waitFor(() => watcher.tracker.state?.section?.mark === 'D', 4000, 'section D');
  const bars = watcher.tracker.envelopes.map((e) => e.data?.position?.bar).filter((b) => b !== undefined);
  const from4 = bars.lastIndexOf(4);
  expect(bars[from4 + 1]).toBe(13);
  expect(bars).not.toContain(5);

  expect(await metric(show, 'tutti_votes_total{outcome="counted"}')).toBe(19);
  expect(await metric(show, 'tutti_votes_total{outcome="changed"}')).toBe(2);
  expect(await metric(show, 'tutti_votes_total{outcome="repeat"}')).toBe(2);
  expect(await metric(show, 'tutti_votes_total{outcome="closed"}')).toBe(2);
  expect(await metric(show, 'tutti_vote_count{prompt="path",option="d",where="venue"}')).toBe(10);
  expect(await metric(show, 'tutti_prompts_opened_total')).toBe(1);
}, 30_000);

test('malformed votes are refused and counted: bad fields close the socket 1008, a second device id too; bad bodies get 400/415', async () => {
  const show = await startShow({ scorePath: writeVoteScore({ beats: 32 }), autoplay: true });
  cleanup.push(() => show.close());
  const a = await viewer(show);
  const { key } = await waitFor(() => a.tracker.state?.vote, 5000, 'the prompt to open');

  // an option the prompt does not have: answered, not counted, socket stays
  expect(await vote(a, key, 'nowhere', deviceId(1))).toEqual({ type: 'voted', key, ok: false, reason: 'unknown_option' });
  // a key from another opening: closed
  expect(await vote(a, 'path~zz', 'c', deviceId(1))).toMatchObject({ ok: false, reason: 'closed' });
  // another device id on the same socket
  a.ws.send(JSON.stringify({ type: 'vote', key, option: 'c', device: deviceId(2) }));
  expect(await a.closed).toEqual({ code: 1008, reason: 'one device id per connection' });

  for (const [bad, reason] of [
    [{ type: 'vote', key, option: 'c', device: 'short' }, 'vote device must be 16-64 of A-Z a-z 0-9 - _'],
    [{ type: 'vote', key, option: 'c', device: `${'x'.repeat(64)}y` }, 'vote device must be 16-64 of A-Z a-z 0-9 - _'],
    [{ type: 'vote', key: 'no key', option: 'c', device: deviceId(3) }, "vote key must be the open prompt's key"],
    [{ type: 'vote', key, option: { $gt: '' }, device: deviceId(3) }, 'vote option must be an option id'],
    [{ type: 'vote', key, option: 'c', device: deviceId(3), weight: 1000 }, 'unknown vote field weight'],
  ]) {
    const b = await viewer(show);
    b.ws.send(JSON.stringify(bad));
    expect(await b.closed).toEqual({ code: 1008, reason });
  }
  expect(await metric(show, 'tutti_bad_input_total{source="vote"}')).toBe(6);

  expect((await postVote(show, { key, option: 'c', device: 'short' })).status).toBe(400);
  expect((await postVote(show, '{"key":', 'application/json')).status).toBe(400);
  const plain = await postVote(show, JSON.stringify({ key, option: 'c', device: deviceId(4) }), 'text/plain');
  expect(plain.status).toBe(415);
  expect(await metric(show, 'tutti_bad_input_total{source="vote"}')).toBe(8);
  // nothing of it was counted
  expect(show.votes.status()).toMatchObject({ total: 0 });
  const c = await viewer(show);
  expect(await vote(c, key, 'c', deviceId(5))).toMatchObject({ ok: true });
  await waitFor(() => c.tracker.state?.vote?.total === 1, 3000, 'one vote');
}, 30_000);

test('reactions: taps from every socket become a smoothed 0–1 level in the state and over OSC while the window is open; over-budget taps are dropped', async () => {
  const osc = await listenOsc();
  cleanup.push(() => osc.server.close());
  // 4 s window from bar 2; level 1 = 12.5 taps/s
  const show = await startShow({
    scorePath: writeVoteScore({ prompt: false, reactions: [{ at: { bar: 2 }, until: { bar: 10 }, label: 'Applaud', full: 12.5 }] }),
    autoplay: false,
    oscTargets: [{ host: '127.0.0.1', port: osc.port }],
  });
  cleanup.push(() => show.close());
  const clients = [];
  for (let i = 0; i < 5; i += 1) clients.push(await viewer(show));
  show.show.engine.play();
  const react = await waitFor(() => clients[0].tracker.state?.react, 5000, 'the reaction window');
  expect(react).toMatchObject({ label: 'Applaud', level: 0 });
  // 8 s: the 3.2 s of taps below fit with room to spare when a busy machine stretches their pacing.
  expect(react.closes - react.opens).toBe(8000);
  await waitFor(() => Date.now() >= react.opens, 2000, 'the window to open');
  // 5 sockets × 1 tap every 400 ms = 12.5 taps/s, within each socket's 3/s budget: level 1 once smoothed
  const levels = [];
  for (let round = 0; round < 8; round += 1) {
    for (const c of clients) c.ws.send(JSON.stringify({ type: 'tap', n: 1 }));
    await new Promise((r) => setTimeout(r, 400));
    levels.push(clients[0].tracker.state?.react?.level ?? 0);
  }
  expect(Math.max(...levels)).toBeGreaterThanOrEqual(0.8);
  expect(await metric(show, 'tutti_taps_total{where="venue"}')).toBe(40);
  // one socket flooding: 100 taps at once, over its budget (6 at once, then 3/s): the ones that fit count, the rest are dropped
  for (let i = 0; i < 10; i += 1) clients[1].ws.send(JSON.stringify({ type: 'tap', n: 10 }));
  await waitFor(async () => (await metric(show, 'tutti_taps_total{where="dropped"}')) >= 90, 3000, 'dropped taps');
  expect(await metric(show, 'tutti_taps_total{where="venue"}')).toBeLessThanOrEqual(40 + 10);
  // The window closes: `react` leaves the state; the level went out over OSC 4 times a second.
  await waitFor(() => clients[0].tracker.state && !clients[0].tracker.state.react, 10_000, 'the window to close');
  const sent = osc.received.filter((m) => m[0] === '/tutti/reaction').map((m) => m[1]);
  expect(sent.length).toBeGreaterThanOrEqual(8);
  expect(Math.max(...sent)).toBeGreaterThanOrEqual(0.8);
  // malformed taps are refused like any bad frame
  clients[2].ws.send(JSON.stringify({ type: 'tap', n: 11 }));
  expect(await clients[2].closed).toEqual({ code: 1008, reason: 'tap needs n, a whole number from 1 to 10' });
  expect(
    (await fetch(`${show.audienceUrl}/tap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":0}' })).status,
  ).toBe(400);
}, 30_000);

test('a winner whose section the show has already reached by the close does not start it again', async () => {
  // open from bar 5 for 16 beats: closes at bar 9 (section C) beat 1; with no votes c wins (written first)
  const show = await startShow({ scorePath: writeVoteScore({ at: { bar: 5 }, beats: 16, reactions: [] }), autoplay: true });
  cleanup.push(() => show.close());
  const watcher = await viewer(show);
  const final = await waitFor(() => watcher.tracker.state?.vote?.closed && watcher.tracker.state.vote, 14_000, 'the result');
  expect(final).toMatchObject({ winner: 'c', total: 0 });
  expect(final.branch).toBeUndefined();
  await waitFor(() => watcher.tracker.state?.position?.bar >= 11, 4000, 'bar 11');
  const bars = watcher.tracker.envelopes.map((e) => e.data?.position?.bar).filter((b) => b !== undefined);
  const nine = bars.indexOf(9);
  expect(bars.slice(nine).every((b, i, list) => i === 0 || b >= list[i - 1])).toBe(true); // never back to bar 9
}, 20_000);
