// The optional SHOWS list (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): with it set, the
// edge serves only the named shows (and the default one); any other well-formed name is 404
// NO_SUCH_SHOW on every route, publishing included, before any object is created for it.

import { openPublisher, publish, snapshot, startEdge } from './helpers.js';

let edge;

beforeAll(async () => {
  edge = await startEdge({ vars: { SHOWS: 'spring-gala, a' } });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

test('listed shows and the default show are served; any other name is 404 NO_SUCH_SHOW', async () => {
  const { publisher } = await openPublisher({ wsUrl: `${edge.wsUrl}/s/spring-gala`, token: edge.token });
  expect(await publish(publisher, snapshot('gala', 0, { title: 'Gala' }))).toMatchObject({ type: 'ack' });
  await publisher.close();
  for (const path of ['/s/spring-gala/healthz', '/s/a/poll', '/healthz', '/poll']) {
    expect([path, (await fetch(`${edge.url}${path}`)).status]).toEqual([path, 200]);
  }
  for (const path of ['/s/b/healthz', '/s/spring/poll', '/s/b/', '/s/b/media/x.png']) {
    const res = await fetch(`${edge.url}${path}`);
    expect([path, res.status]).toEqual([path, 404]);
    expect(await res.json()).toMatchObject({ error: 'NO_SUCH_SHOW', message: expect.stringContaining('"') });
  }
  const publishOther = await fetch(`${edge.url}/s/b/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${edge.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(snapshot('b', 0, { title: 'not listed' })),
  });
  expect(publishOther.status).toBe(404);
});
