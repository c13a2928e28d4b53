// The pure parts of named shows (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): reading
// the show from the path, the object names, and the per-isolate feed caches' bound. The routes
// themselves are tested on workerd in shows*.test.js.

import { parseShowPath } from '../../../edge-worker/src/http/show-path.js';
import { createFeedCaches, MAX_SHOWS } from '../../../edge-worker/src/http/feed-caches.js';
import { isShowName } from '#core/protocol/show-name.js';

test('paths without /s/ are the default show, unchanged', () => {
  for (const path of ['/', '/ws', '/publish/media/a.png', '/sse', '/show', '/sx/a'])
    expect(parseShowPath(path)).toEqual({ kind: 'default', rest: path });
});

test('/s/<show>/… names a show; the rest is the path inside it', () => {
  expect(parseShowPath('/s/spring-gala/ws')).toEqual({ kind: 'show', show: 'spring-gala', rest: '/ws', base: '/s/spring-gala' });
  expect(parseShowPath('/s/a/publish/media/x/y.png')).toMatchObject({ show: 'a', rest: '/publish/media/x/y.png' });
  expect(parseShowPath('/s/a/')).toMatchObject({ show: 'a', rest: '/' });
  expect(parseShowPath('/s/a')).toMatchObject({ show: 'a', rest: '' });
});

test('anything else under /s is refused', () => {
  for (const path of ['/s', '/s/', '/s//ws', '/s/A/ws', '/s/a_b', '/s/-a/', '/s/a.b/', '/s/%61/', `/s/${'a'.repeat(41)}/`, '/s/a:0/']) {
    expect([path, parseShowPath(path).kind]).toEqual([path, 'bad']);
  }
  expect(isShowName('a'.repeat(40))).toBe(true);
  expect(isShowName(null)).toBe(false);
});

test('one feed cache per show, at most MAX_SHOWS per isolate (least recently used dropped)', () => {
  const caches = createFeedCaches({ ttlMs: 100, limit: 8 });
  const a = caches.forShow('a');
  expect(caches.forShow('a')).toBe(a);
  expect(caches.forShow(null)).not.toBe(a);
  expect(caches.forShow('b')).not.toBe(a);
  for (let i = 0; i < MAX_SHOWS * 2; i += 1) {
    caches.forShow(`s${i}`);
    caches.forShow('a'); // kept in use: never the one dropped
  }
  expect(caches.size()).toBe(MAX_SHOWS);
  expect(caches.forShow('a')).toBe(a);
});
