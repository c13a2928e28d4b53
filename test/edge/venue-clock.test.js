// A venue laptop whose clock is off (docs/explanation/clock-sync.md#the-venues-clock): every time in the
// state is on the venue's clock, so the edge keeps time on it too. A real show server whose clock
// runs a minute slow or fast publishes to the worker on real local workerd: the edge's WebSocket
// pongs and GET /time answer on the venue's clock (so remote phones show beats and vote buttons
// when the hall does), remote votes count, and the edge seals the prompt 3 s after its close on
// the venue's clock, not a minute early (every remote vote refused) or late (the venue gives up).
import { afterEach, expect, test } from '@jest/globals';
import { startShow } from '../support/show.js';
import { writeVoteScore, deviceId } from '../support/vote-score.js';
import { waitFor as waitUntil } from '../support/clients.js';
import { edgeVote, openSocket, showStats, startEdge, stateOf, waitFor } from './helpers.js';

const started = [];
afterEach(async () => {
  for (const stop of started.splice(0).reverse()) await stop();
});

test.each([
  ['a minute slow', -60_000],
  ['a minute fast', 60_000],
])(
  'a venue clock %s: the edge answers on it, counts remote votes and seals on time',
  async (_, skewMs) => {
    const venueNow = () => Date.now() + skewMs;
    const edge = await startEdge({ vars: { SHARD_CAPACITY: 3, SHARD_COUNT: 4 } });
    started.push(() => edge.stop());
    const server = await startShow({
      scorePath: writeVoteScore({ beats: 8, bpm: 120 }),
      autoplay: false,
      edgeUrl: edge.url,
      edgeToken: edge.token,
      now: venueNow,
      voteEdgeWaitMs: 15_000,
    });
    started.push(() => server.close());
    await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the venue to connect to the edge' });
    const viewers = [];
    for (let i = 0; i < 4; i += 1) {
      const viewer = openSocket(`${edge.wsUrl}/ws`);
      started.push(async () => viewer.ws.terminate());
      await viewer.opened;
      viewers.push(viewer);
    }
    server.show.engine.play();
    // The edge learns the venue's clock from live deltas (beats), not from the publisher's catch-up.
    await waitFor(async () => Math.abs((await showStats(edge)).venueClock.offsetMs + skewMs) < 1000, {
      timeoutMs: 10_000,
      what: 'the edge to learn the venue clock',
    });

    // A pong and GET /time read the venue's clock, within the loopback's few ms (1 s allowed).
    const c = Date.now();
    viewers[0].send({ type: 'ping', id: 7, c });
    const pong = await viewers[0].next((f) => f.type === 'pong' && f.id === 7);
    expect(Math.abs(pong.s - venueNow())).toBeLessThan(1000);
    const time = await (await fetch(`${edge.url}/time`)).json();
    expect(Math.abs(time.s - venueNow())).toBeLessThan(1000);

    await waitFor(() => viewers.every((v) => stateOf(v)?.vote?.key), { timeoutMs: 15_000, what: 'the prompt on every edge viewer' });
    const { key, closes } = stateOf(viewers[0]).vote;
    const answers = await Promise.all(viewers.map((v, i) => edgeVote(v, key, i < 3 ? 'd' : 'c', deviceId(600 + i))));
    expect(answers.map((a) => a.ok)).toEqual([true, true, true, true]);

    const result = await waitUntil(() => server.show.stream.state().vote?.closed && server.show.stream.state().vote, 30_000, 'the result');
    expect(result).toMatchObject({ key, counts: [1, 3, 0], total: 4, winner: 'd' });
    expect(server.votes.status().edge).toBe('final');
    // Sealed 3 s after the close on the venue's clock: the result follows within seconds, not a minute.
    expect(server.votes.status().finalAt - closes).toBeGreaterThanOrEqual(3000);
    expect(server.votes.status().finalAt - closes).toBeLessThan(10_000);
  },
  90_000,
);
