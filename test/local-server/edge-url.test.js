import { edgeHttpBase, edgePublishUrl, healthzUrl } from '../../local-server/src/edge/edge-url.js';

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
