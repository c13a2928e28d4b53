// The edge's final count (docs/reference/audience-protocol.md#audience-voices; edge-worker/src/votes/vote-seal.js): a prompt's
// result counts every vote the edge accepted, however late the edge's totals reach the venue. A
// real show server publishes to the worker on real local workerd through a loopback proxy that
// delays what the edge sends the venue (a slow venue link, or an edge seconds behind under a vote
// storm, look the same from the venue): the result waits for the edge's sealed final count instead
// of closing at a fixed time with whatever totals had arrived. Votes after the seal are refused.
// A venue whose link to the edge is gone still closes, after its wait, and says the edge was late.
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { startShow } from '../support/show.js';
import { openWs, waitFor as waitUntil } from '../support/clients.js';
import { writeVoteScore, deviceId } from '../support/vote-score.js';
import { startJitterProxy } from '../audience/support/jitter-proxy.js';
import { edgeVote, openSocket, showStats, startEdge, stateOf, waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';

/** What the edge sends the venue arrives this late: more than the 5 s a fixed deadline after the close gave. */
const LINK_DELAY_MS = 9000;

const started = [];
afterEach(async () => {
  for (const stop of started.splice(0).reverse()) await stop();
});
afterAll(async () => {
  for (const stop of started.splice(0).reverse()) await stop();
});

/** An edge with 4 shards of 3 viewers, a venue publishing to it through a delaying proxy. */
async function venueBehindSlowLink({ voteEdgeWaitMs, port = 0 } = {}) {
  const edge = await startEdge({ vars: { SHARD_CAPACITY: 3, SHARD_COUNT: 4 }, port });
  started.push(() => edge.stop());
  // random() = 1: every chunk waits exactly the set delay (in order), none at first.
  const proxy = await startJitterProxy({ targetPort: Number(new URL(edge.url).port), random: () => 1 });
  started.push(() => proxy.close());
  const server = await startShow({
    scorePath: writeVoteScore({ beats: 8 }),
    autoplay: false,
    edgeUrl: proxy.url,
    edgeToken: edge.token,
    voteEdgeWaitMs,
  });
  started.push(() => server.close());
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the venue to connect to the edge' });
  return { edge, proxy, server };
}

/** Edge viewers whose state is kept from their frames. */
async function edgeViewers(edge, n) {
  const viewers = [];
  for (let i = 0; i < n; i += 1) {
    const viewer = openSocket(`${edge.wsUrl}/ws`);
    started.push(async () => viewer.ws.terminate());
    await viewer.opened;
    viewers.push(viewer);
  }
  return viewers;
}

test("a slow venue link: the result waits for the edge's sealed final count and counts every edge vote; a vote after the seal is refused", async () => {
  const { edge, proxy, server } = await venueBehindSlowLink();
  const remote = await edgeViewers(edge, 6);
  expect(new Set(remote.map((v) => v.state.shard)).size).toBeGreaterThanOrEqual(2);
  const local = await openWs(server.audienceUrl);
  started.push(async () => local.ws.terminate());

  // From now on the edge's totals reach the venue LINK_DELAY_MS late; the state still flows out.
  proxy.setDelay(LINK_DELAY_MS, 'down');
  server.show.engine.play();
  await waitFor(() => remote.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 10_000, what: 'the prompt on every edge viewer' });
  const { key, closes } = stateOf(remote[0]).vote;
  // Edge: 4 × d, 1 × c; venue: 1 × c. Without the edge, c and d tie and c (written first) wins.
  const answers = await Promise.all(remote.slice(0, 5).map((v, i) => edgeVote(v, key, i < 4 ? 'd' : 'c', deviceId(200 + i))));
  expect(answers.map((a) => a.ok)).toEqual(Array(5).fill(true));
  local.ws.send(JSON.stringify({ type: 'vote', key, option: 'c', device: deviceId(1) }));
  await waitUntil(() => local.others.find((m) => m.type === 'voted'), 5000, "the venue's answer");

  const result = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 30_000, 'the result');
  expect(result).toMatchObject({ key, counts: [2, 4, 0], total: 6, winner: 'd' });
  // It came once the final count had crossed the slow link, not at a fixed time after the close.
  expect(server.votes.status()).toMatchObject({ edge: 'final', edgeLate: null });
  expect(server.votes.status().finalAt).toBeGreaterThan(closes + LINK_DELAY_MS);
  expect(await server.metrics.exposition()).toMatch(/tutti_vote_results_total\{edge="final"\} 1/);

  // The edge sealed the prompt (3 s after the close) with exactly its 5, and refuses later votes.
  expect((await showStats(edge)).votes.seal.last).toEqual({ key, counts: [1, 4, 0], total: 5 });
  expect(await edgeVote(remote[5], key, 'c', deviceId(299))).toMatchObject({ ok: false, reason: 'closed' });
  expect((await showStats(edge)).votes.seal.last.total).toBe(5);
}, 120_000);

test("the edge's count is later than the venue's wait: the result comes without it, says so, and the late final count is kept", async () => {
  // The final count leaves the edge 3 s after the close and arrives 5 s later: after the 1.5 s
  // wait, before the result is dropped 10 s after it.
  const { edge, proxy, server } = await venueBehindSlowLink({ voteEdgeWaitMs: 1500 });
  const remote = await edgeViewers(edge, 2);
  proxy.setDelay(5000, 'down');
  server.show.engine.play();
  await waitFor(() => remote.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 10_000, what: 'the prompt on every edge viewer' });
  const { key } = stateOf(remote[0]).vote;
  await edgeVote(remote[0], key, 'd', deviceId(300));
  await edgeVote(remote[1], key, 'd', deviceId(301));

  const result = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 30_000, 'the result');
  // Nothing from the edge arrived within the wait: the edge's votes are missing, and the status says why.
  expect(result).toMatchObject({ key, counts: [0, 0, 0], total: 0, winner: 'c' });
  expect(server.votes.status().edge).toBe('timeout');
  expect(await server.metrics.exposition()).toMatch(/tutti_vote_results_total\{edge="timeout"\} 1/);
  await waitFor(() => server.votes.status()?.edgeLate, { timeoutMs: 20_000, what: "the edge's late final count" });
  expect(server.votes.status().edgeLate).toMatchObject({ counts: [0, 2, 0], total: 2 });
}, 120_000);

test('the venue link drops while the edge seals: the final count comes again when it reconnects', async () => {
  const { edge, proxy, server } = await venueBehindSlowLink({ voteEdgeWaitMs: 15_000 });
  const remote = await edgeViewers(edge, 3);
  server.show.engine.play();
  await waitFor(() => remote.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 10_000, what: 'the prompt on every edge viewer' });
  const { key, closes } = stateOf(remote[0]).vote;
  for (const [i, v] of remote.entries()) await edgeVote(v, key, 'stay', deviceId(400 + i));
  // The venue's link is down from before the seal (3 s after the close) until well after it.
  proxy.block(['/publish']);
  proxy.destroyAll();
  await waitFor(async () => (await showStats(edge)).votes.seal?.last?.key === key, {
    timeoutMs: 15_000,
    what: 'the edge to seal the prompt',
  });
  expect(server.status().edge.connected).toBe(false);
  expect(Date.now()).toBeLessThan(closes + 15_000);
  proxy.block([]);

  const result = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 30_000, 'the result');
  expect(result).toMatchObject({ key, counts: [0, 0, 3], total: 3, winner: 'stay' });
  expect(server.votes.status().edge).toBe('final');
}, 120_000);

test('workerd restarts between the close and the seal: the restarted edge seals from storage, exactly', async () => {
  // A fixed port: the proxy (the venue's way to the edge) must find the restarted workerd.
  const { edge, server } = await venueBehindSlowLink({ port: await freePort() });
  const remote = await edgeViewers(edge, 6);
  server.show.engine.play();
  await waitFor(() => remote.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 10_000, what: 'the prompt on every edge viewer' });
  const { key } = stateOf(remote[0]).vote;
  const answers = await Promise.all(remote.map((v, i) => edgeVote(v, key, i < 2 ? 'c' : 'd', deviceId(500 + i))));
  expect(answers.map((a) => a.ok)).toEqual(Array(6).fill(true));
  // Every owner's memory is gone; its stored choices are all that is left.
  await edge.restart();

  const result = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 40_000, 'the result');
  expect(result).toMatchObject({ key, counts: [2, 4, 0], total: 6, winner: 'd' });
  expect(server.votes.status().edge).toBe('final');
  expect((await showStats(edge)).votes.seal.last).toEqual({ key, counts: [2, 4, 0], total: 6 });
}, 120_000);
