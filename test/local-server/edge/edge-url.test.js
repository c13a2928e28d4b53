import { edgeHttpBase, edgePublishUrl, healthzUrl, parseEdgeUrl } from '../../../local-server/src/edge/edge-url.js';
import { parseServeArgs } from '../../../local-server/src/cli/config.js';

test('one reading of what the operator typed, for publishing, media and /healthz', () => {
  for (const typed of ['https://edge.example.com', 'https://edge.example.com/', 'wss://edge.example.com/publish']) {
    expect(edgePublishUrl(typed).url).toBe('wss://edge.example.com/publish');
    expect(edgeHttpBase(typed)).toBe('https://edge.example.com');
    expect(healthzUrl(typed)).toBe('https://edge.example.com/healthz');
  }
  expect(edgeHttpBase('ws://127.0.0.1:8787/show/publish/')).toBe('http://127.0.0.1:8787/show');
  expect(edgePublishUrl('http://127.0.0.1:8787/show?x=1#y').url).toBe('ws://127.0.0.1:8787/show/publish?x=1');
});

test('anything else is refused with a sentence, and no URL', () => {
  expect(edgePublishUrl('ftp://x').reason).toMatch(/https:\/\//);
  expect(edgeHttpBase('ftp://x')).toBeNull();
  expect(healthzUrl('not a url')).toBeNull();
  expect(edgePublishUrl('not a url').reason).toMatch(/must be a URL/);
});

test('a show on a shared edge is named in the path: everything the venue sends goes under it', () => {
  for (const typed of [
    'https://edge.example.com/s/spring-gala',
    'https://edge.example.com/s/spring-gala/',
    'wss://edge.example.com/s/spring-gala/publish',
  ]) {
    expect(edgePublishUrl(typed).url).toBe('wss://edge.example.com/s/spring-gala/publish');
    expect(edgeHttpBase(typed)).toBe('https://edge.example.com/s/spring-gala');
    expect(healthzUrl(typed)).toBe('https://edge.example.com/s/spring-gala/healthz');
    expect(parseEdgeUrl(typed).address?.show).toBe('spring-gala');
  }
  expect(parseEdgeUrl('https://edge.example.com').address?.show).toBeNull();
  // Names the edge refuses (edge-worker/src/http/show-path.js) are refused here first, with a sentence.
  for (const typed of [
    'https://e.example/s/Spring',
    'https://e.example/s/',
    'https://e.example/s/a_b',
    `https://e.example/s/${'x'.repeat(41)}`,
    'https://e.example/s/-a',
    'https://e.example/s/%C3%A9',
  ]) {
    const { url, reason } = edgePublishUrl(typed);
    expect([typed, url]).toEqual([typed, null]);
    expect(reason).toMatch(/show/);
    expect(edgeHttpBase(typed)).toBeNull();
    expect(healthzUrl(typed)).toBeNull();
  }
  // The page's URL pasted instead of the show's: refused, not published to /s/a/ws/publish.
  expect(edgePublishUrl('https://e.example/s/a/ws').reason).toMatch(/must end with the show's folder/);
});

test('tutti serve refuses a bad show name in --edge before starting', () => {
  const { errors } = parseServeArgs(['--edge', 'https://edge.example.com/s/Bad_Name', '--edge-token', 'x'.repeat(32)], {});
  expect(errors.join('\n')).toMatch(/names the show "Bad_Name"/);
  expect(parseServeArgs(['--edge', 'https://edge.example.com/s/good-name', '--edge-token', 'x'.repeat(32)], {}).errors).toEqual([]);
});

test('tutti serve reads --edge by the same rule as the console (wss:// and /publish accepted)', () => {
  // The console's edge panel has always accepted what edge-url.js accepts; the CLI refused wss://.
  for (const typed of ['wss://edge.example.com/s/gala/publish', 'ws://127.0.0.1:8787', 'https://edge.example.com/']) {
    const { errors } = parseServeArgs(['--edge', typed, '--edge-token', 'x'.repeat(32)], {});
    expect({ typed, errors }).toEqual({ typed, errors: [] });
  }
  const refused = parseServeArgs(['--edge', 'ftp://x', '--edge-token', 'x'.repeat(32)], {}).errors.join('\n');
  expect(refused).toMatch(/--edge must start with https:\/\/, http:\/\/, wss:\/\/ or ws:\/\//);
  expect(parseServeArgs([], { TUTTI_EDGE: 'ftp://x', TUTTI_EDGE_TOKEN: 'x'.repeat(32) }).errors.join('\n')).toMatch(
    /^TUTTI_EDGE must start/m,
  );
});
