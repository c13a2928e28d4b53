// The Worker's SSE/poll feed cache (edge-worker/src/http/feed-cache.js) as plain logic, with a root
// stub whose feed RPC answers late (a loaded root): a request that arrives while another request's
// refresh is in flight gets that refresh's answer, not the copy before it — right after a start
// that copy is the root's "no show yet" snapshot (state-too-big.test.js saw one on a loaded run).
import { createFeedCache } from '../../../edge-worker/src/http/feed-cache.js';

/** A root whose feed() answers after `delayMs` with its current head. */
function slowRoot(delayMs) {
  const root = {
    head: { epoch: 'none-1', seq: 999, rev: 1, snapshot: '{"none":true}' },
    calls: 0,
    async feed() {
      root.calls += 1;
      const answer = { ...root.head, deltas: [], full: true, venue: { status: 'live', since: 1 }, clockOffset: 0 };
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer;
    },
  };
  return root;
}

test('a request during another request’s refresh gets that refresh’s answer, with one root call', async () => {
  const cache = createFeedCache({ ttlMs: 50, limit: 16 });
  const root = slowRoot(120);
  expect((await cache.current(root)).epoch).toBe('none-1'); // the first read: the root had no show yet
  await new Promise((resolve) => setTimeout(resolve, 60)); // the copy is now older than the TTL
  root.head = { epoch: 'venue-1', seq: 7, rev: 2, snapshot: '{"venue":true}' };
  const first = cache.current(root); // refreshes (slowly)
  await new Promise((resolve) => setTimeout(resolve, 20));
  const second = cache.current(root); // arrives while the refresh is in flight
  const [a, b] = await Promise.all([first, second]);
  expect(a.epoch).toBe('venue-1');
  expect(b.epoch).toBe('venue-1');
  expect(b.seq).toBe(7);
  expect(root.calls).toBe(2); // the start's and one refresh: the waiting request made none of its own
});

test('within the TTL the copy is served without asking the root', async () => {
  const cache = createFeedCache({ ttlMs: 10_000, limit: 16 });
  const root = slowRoot(5);
  await cache.current(root);
  root.head = { epoch: 'venue-2', seq: 1, rev: 2, snapshot: '{}' };
  expect((await cache.current(root)).epoch).toBe('none-1');
  expect(root.calls).toBe(1);
});
