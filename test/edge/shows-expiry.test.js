// A named show's root after eviction (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): the
// root's alarm may be the only thing that wakes it (a lost show expiring to "not started"), and the
// fresh instance must push to its own show's shards — it reads its show name from storage.

import { openPublisher, openSocket, publish, snapshot, startEdge, waitFor } from './helpers.js';

const EXPIRE_MS = 25_000;
let edge;

beforeAll(async () => {
  edge = await startEdge({ vars: { SHOWS: '*', VENUE_LOST_MS: 1000, VENUE_EXPIRE_MS: EXPIRE_MS } });
});

afterAll(async () => {
  await edge?.stop();
});

test('a lost named show expires to "none" for its own viewers after its root was evicted', async () => {
  const { publisher } = await openPublisher({ wsUrl: `${edge.wsUrl}/s/a`, token: edge.token });
  await publish(publisher, snapshot('expiring', 1, { title: 'Show A', bar: 4 }));
  const viewer = openSocket(`${edge.wsUrl}/s/a/ws`);
  await viewer.opened;
  expect(await viewer.next((f) => f.type === 'snapshot')).toMatchObject({ epoch: 'expiring' });
  await publisher.close();
  const lost = await viewer.next((f) => f.type === 'snapshot' && f.data?.venue?.status === 'lost', 10_000);
  // Nothing touches the root now (workerd evicts it after ~10 s); only its alarm wakes it again.
  const none = await viewer.next((f) => f.type === 'snapshot' && f.data?.venue?.status === 'none', EXPIRE_MS + 15_000);
  expect(none.seq).toBeGreaterThan(lost.seq);
  await waitFor(async () => (await (await fetch(`${edge.url}/s/a/healthz`)).json()).venue === 'none', { what: 'show a to be "none"' });
  await viewer.close();
}, 90_000);
