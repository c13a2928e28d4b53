// Which show an object belongs to comes from the object's own name (edge-worker/src/env/show-identity.js):
// the naming convention both ways, and on real workerd that `ctx.id.name` gives the name back, so a
// named show's root and shards know their show with no header, argument, tag or stored copy.

import { identityOf, parseObjectName, rootName, shardName } from '../../edge-worker/src/env/show-identity.js';
import { edgeForSuite, openPublisher, openSocket, publish, snapshot, withoutVenue } from './helpers.js';

describe('the naming convention, both ways', () => {
  test('every root and shard name reads back as the show (and index) it was made from', () => {
    for (const show of [null, 'a', 'spring-gala', '0', 'x'.repeat(40)]) {
      expect(parseObjectName(rootName(show))).toEqual({ kind: 'root', show });
      for (const index of [0, 7, 1023]) expect(parseObjectName(shardName(index, show))).toEqual({ kind: 'shard', show, index });
    }
  });

  test('an object reads who it is from ctx.id.name, and refuses to serve under any other name', () => {
    expect(identityOf({ id: { name: 'shard:gala:3' } }, 'shard')).toEqual({ kind: 'shard', show: 'gala', index: 3 });
    expect(identityOf({ id: { name: 'main' } }, 'root')).toEqual({ kind: 'root', show: null });
    expect(() => identityOf({ id: { name: 'main' } }, 'shard')).toThrow(/not a shard object name: "main"/);
    expect(() => identityOf({ id: {} }, 'root')).toThrow(/not a root object name: null/);
  });

  test('any other name is no object of a show', () => {
    const others = [undefined, null, 7, '', 'mainx', 'show:', 'show:Bad', 'show:-a', 'show:a:1', 'shard:a:', 'shard:a:x', 'shard:a:1:2'];
    others.push('main/shard/', 'main/shard/-1', 'main/shard/12345', `show:${'x'.repeat(41)}`, 'shard::1');
    for (const name of others) expect([name, parseObjectName(name)]).toEqual([name, null]);
  });
});

describe('on workerd', () => {
  const suite = edgeForSuite({ vars: { SHOWS: '*', SHARD_COUNT: 2 } });
  /** @param {string} path */
  const deep = async (path) => {
    const res = await fetch(`${suite.edge.url}${path}/healthz?deep=1`, { headers: { authorization: `Bearer ${suite.edge.token}` } });
    return (await res.json()).show;
  };

  test("each root reads its show from its own name (the default show's is null)", async () => {
    expect((await deep('')).show).toBeNull();
    expect((await deep('/s/gala-2')).show).toBe('gala-2');
  });

  test('a viewer lands in the show of its path whatever show or shard headers it sends', async () => {
    const edge = suite.edge;
    const at = { url: `${edge.url}/s/gala-2`, wsUrl: `${edge.wsUrl}/s/gala-2`, token: edge.token };
    const { publisher } = await openPublisher(at);
    try {
      await publish(publisher, snapshot('gala-epoch', 1, { title: 'Gala' }));
      const viewer = openSocket(`${at.wsUrl}/ws`, { headers: { 'x-tutti-show': 'other', 'x-tutti-shard': '1' } });
      await viewer.opened;
      const first = await viewer.next((f) => f.type === 'snapshot');
      expect([first.epoch, withoutVenue(first.data), viewer.state.shard]).toEqual(['gala-epoch', { title: 'Gala' }, '0']);
      viewer.close();
      // The shard attached to its own show's root, which counts it.
      expect((await deep('/s/gala-2')).shards).toHaveProperty('0');
      expect((await deep('/s/other')).epoch).toMatch(/^none-/);
    } finally {
      publisher.close();
    }
  });
});
