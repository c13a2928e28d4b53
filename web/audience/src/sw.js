// Service worker: keeps the app shell (and the score's audio once the viewer has joined) so a
// phone that re-joins, or comes back after the Wi-Fi dropped, loads almost nothing.
// __VERSION__ and __PRECACHE__ are filled in by build.js. Live endpoints (ws, sse, poll, time,
// healthz) are never touched.

/* global __VERSION__, __PRECACHE__ */
// `self` is the service worker's global scope (the type checker's WebWorker lib calls it a worker).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const SHELL = `tutti-shell-${__VERSION__}`;
const MEDIA = 'tutti-media';
const PRECACHE = __PRECACHE__;
const scope = new URL(sw.registration.scope);
const shellUrls = new Set(PRECACHE.map((p) => new URL(p, scope).href));
const index = new URL('./', scope).href;

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll([...shellUrls]))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('tutti-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => sw.clients.claim()),
  );
});

/** Cache first: hashed assets never change, media only with the score. */
async function cacheFirst(request, name) {
  const hit = await caches.match(request, { ignoreVary: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.status === 200) {
    const copy = res.clone();
    caches.open(name).then((cache) => cache.put(request, copy));
  }
  return res;
}

/** The page itself: fresh when the network answers (a 304 costs ~200 bytes), cached when not. */
async function networkFirst(request) {
  try {
    const res = await fetch(request);
    if (res.status === 200) {
      const copy = res.clone();
      caches.open(SHELL).then((cache) => cache.put(index, copy));
    }
    return res;
  } catch {
    return (await caches.match(index)) ?? Response.error();
  }
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !request.url.startsWith(scope.href)) return;
  const url = new URL(request.url);
  url.search = '';
  if (request.mode === 'navigate' && url.href === index) return event.respondWith(networkFirst(request));
  if (request.headers.has('range')) return; // partial media: straight to the network
  if (shellUrls.has(url.href) && url.href !== index) return event.respondWith(cacheFirst(request, SHELL));
  // The engraved pages keep their URL when the notation is engraved afresh: the page keeps them
  // itself, by bar map (shared/notation-source.js), so they are not cached here for good.
  if (url.href.startsWith(new URL('media/notation/', scope).href)) return;
  if (url.href.startsWith(new URL('media/', scope).href)) return event.respondWith(cacheFirst(request, MEDIA));
});

sw.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'cache-media' || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .slice(0, 64)
    .map((u) => new URL(u, scope).href)
    .filter((u) => u.startsWith(new URL('media/', scope).href));
  event.waitUntil(
    caches.open(MEDIA).then(async (cache) => {
      for (const u of urls) if (!(await cache.match(u))) await cache.add(u).catch(() => {});
    }),
  );
});
