// Audience voices across the venue and the edge (docs/reference/audience-protocol.md#audience-voices): a real show
// server publishing to the worker on real local workerd with 3 viewers per shard, so the edge's
// viewers sit on several shards. Every phone counts once wherever it is: a second tab on another
// shard, a reconnect and a repeated vote do not add up; the venue's tally is the venue's phones
// plus the edge's, exactly; late and malformed votes are refused on the edge too.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startShow } from '../support/show.js';
import { openWs, waitFor as waitUntil } from '../support/clients.js';
import { writeVoteScore, deviceId } from '../support/vote-score.js';
import { edgeVote, openSocket, postVote, showStats, startEdge, stateOf, waitFor } from './helpers.js';

let edge;
let server;
const sockets = [];

beforeAll(async () => {
  edge = await startEdge({ vars: { SHARD_CAPACITY: 3, SHARD_COUNT: 4 } });
  // 24 bars: the reaction window (bar 13 to the end) stays open long enough for a loaded machine
  server = await startShow({
    scorePath: writeVoteScore({ beats: 24, bars: 24, reactions: [{ at: { bar: 13 }, until: { bar: 24 }, full: 40 }] }),
    autoplay: false,
    edgeUrl: edge.url,
    edgeToken: edge.token,
  });
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the venue to connect to the edge' });
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.ws?.terminate?.();
  await server?.close();
  await edge?.stop();
});

/** An edge viewer whose state is kept up to date from its frames. */
async function edgeViewer() {
  const viewer = openSocket(`${edge.wsUrl}/ws`);
  sockets.push(viewer);
  await viewer.opened;
  return viewer;
}

async function venueVote(client, key, option, device) {
  const before = client.others.length;
  client.ws.send(JSON.stringify({ type: 'vote', key, option, device }));
  return waitUntil(() => client.others.slice(before).find((m) => m.type === 'voted'), 5000, `the venue's answer to ${device}`);
}

test('venue + edge shards: exact totals, a second tab on another shard and a reconnect count once; late and bad votes refused', async () => {
  const remote = [];
  for (let i = 0; i < 9; i += 1) remote.push(await edgeViewer());
  const shards = new Set(remote.map((v) => v.state.shard));
  expect(shards.size).toBeGreaterThanOrEqual(3);
  const local = [];
  for (let i = 0; i < 3; i += 1) {
    const client = await openWs(server.audienceUrl);
    sockets.push(client);
    local.push(client);
  }
  server.show.engine.play();
  await waitFor(() => remote.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 10_000, what: 'the prompt on every edge viewer' });
  const { key } = stateOf(remote[0]).vote;
  expect(server.votes.status().key).toBe(key);

  // Edge: devices 100–105 d, 106 c, 107 stay.
  const answers = await Promise.all(
    remote.slice(0, 8).map((v, i) => edgeVote(v, key, i < 6 ? 'd' : i === 6 ? 'c' : 'stay', deviceId(100 + i))),
  );
  expect(answers.map((a) => a.ok)).toEqual(Array(8).fill(true));
  // device 100's second tab, on another shard, changes its mind: d → c
  expect(remote[8].state.shard).not.toBe(remote[0].state.shard);
  expect(await edgeVote(remote[8], key, 'c', deviceId(100))).toMatchObject({ ok: true });
  // the same vote again, and device 107 reconnecting (to whichever shard) and voting again
  expect(await edgeVote(remote[1], key, 'd', deviceId(101))).toMatchObject({ ok: true });
  remote[7].ws.close();
  const back = await edgeViewer();
  expect(await edgeVote(back, key, 'stay', deviceId(107))).toMatchObject({ ok: true });
  // an SSE/poll viewer on the edge votes over HTTP
  const posted = await postVote(edge, { key, option: 'c', device: deviceId(108) });
  expect(posted.status).toBe(200);
  // Venue: 0 d, 1 c, 2 c.
  for (const [i, option] of ['d', 'c', 'c'].entries())
    expect(await venueVote(local[i], key, option, deviceId(i))).toMatchObject({ ok: true });

  // edge: c 100, 106, 108 = 3; d 101–105 = 5; stay 107 = 1. venue: c 2, d 1.
  await waitFor(async () => (await showStats(edge)).votes.total === 9, { timeoutMs: 10_000, what: 'the edge to count 9' });
  expect((await showStats(edge)).votes).toMatchObject({ key, counts: [3, 5, 1], total: 9 });
  await waitFor(() => server.votes.status()?.total === 12, { timeoutMs: 5000, what: 'the venue to add the edge' });
  const final = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 15_000, 'the close');
  expect(final).toMatchObject({ key, counts: [5, 6, 1], total: 12, winner: 'd' });
  expect(server.votes.status().options.map((o) => [o.venue, o.edge])).toEqual([
    [2, 3],
    [1, 5],
    [0, 1],
  ]);
  // Remote viewers see the same result.
  await waitFor(() => stateOf(remote[0])?.vote?.closed, { timeoutMs: 5000, what: 'the result on the edge' });
  expect(stateOf(remote[0]).vote).toMatchObject({ counts: [5, 6, 1], total: 12, winner: 'd' });

  // Late, on a socket and over HTTP: the edge reads votes until it seals the prompt, 3 s after the
  // close (its shards may read a frame late under a storm), not later.
  await waitFor(async () => (await showStats(edge)).votes.seal?.last?.key === key, { timeoutMs: 10_000, what: 'the seal' });
  expect(await edgeVote(remote[2], key, 'c', deviceId(102))).toMatchObject({ ok: false, reason: 'closed' });
  const late = await postVote(edge, { key, option: 'c', device: deviceId(109) });
  expect(late.status).toBe(409);
  expect((await showStats(edge)).votes.total).toBe(9);

  // Malformed: a bad device id closes 1008, another device id on a voting socket too; bad bodies 400/415.
  const bad = await edgeViewer();
  bad.send({ type: 'vote', key, option: 'c', device: 'short' });
  expect(await bad.closed).toBe(1008);
  expect(bad.state.closeReason).toBe('vote device must be 16-64 of A-Z a-z 0-9 - _');
  remote[3].send({ type: 'vote', key, option: 'c', device: deviceId(999) });
  expect(await remote[3].closed).toBe(1008);
  expect(remote[3].state.closeReason).toBe('one device id per connection');
  expect(
    (await fetch(`${edge.url}/vote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"key":' })).status,
  ).toBe(400);
  expect((await fetch(`${edge.url}/vote`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
  // The refusals are counted by the shards and reported to the root with their next push.
  await waitFor(async () => (await showStats(edge)).viewerFramesRefused.vote >= 2, {
    timeoutMs: 10_000,
    what: "the refusals in the root's stats",
  });

  // The branch took the show to section D (bar 13), where the reaction window opens: remote taps
  // reach the venue's meter through the shards, the root and the uplink.
  await waitFor(() => stateOf(remote[0])?.react, { timeoutMs: 10_000, what: 'the reaction window on the edge' });
  const tappers = [remote[0], remote[1], remote[4], remote[5]];
  // 6 taps each: within a socket's burst on the edge (3 a second after 6, viewer-rules.js)
  for (let round = 0; round < 3; round += 1) {
    for (const v of tappers) v.send({ type: 'tap', n: 2 });
    await new Promise((r) => setTimeout(r, 250));
  }
  const edgeTaps = async () =>
    Number(
      (await server.metrics.exposition())
        .split('\n')
        .find((l) => l.startsWith('tutti_taps_total{where="edge"}'))
        ?.split(' ')
        .pop() ?? 0,
    );
  await waitFor(async () => (await edgeTaps()) === 24, { timeoutMs: 10_000, what: 'the 24 edge taps at the venue' });
  expect((await showStats(edge)).votes.taps).toBe(24);
}, 90_000);
