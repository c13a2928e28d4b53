// /media/* from the location's cache (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): the Cache API keeps each
// file the root served, so a flood of media requests (or 100,000 viewers loading the same image)
// costs the root one request per file per location and minute, not one each. The cached copy is
// fresh for CACHE_S at the location (the viewer still gets max-age=3600 from the root's headers);
// a file the venue replaces or deletes is dropped from this location's cache at once and is
// fresh everywhere else within CACHE_S.

const CACHE_S = 60;
/** The root's cache-control, kept beside the location's in the cached copy. */
const ROOT_RULE_HEADER = 'x-tutti-cache-control';

/**
 * The cache key of a media file: the URL a viewer asks for, without query or headers.
 * @param {string} origin
 * @param {string} base `/s/<show>` or '' for the default show
 * @param {string} src the path under /media/
 */
function cacheKey(origin, base, src) {
  return new Request(`${origin}${base}/media/${src}`, { method: 'GET' });
}

/** @returns {Cache | null} the location's cache (absent outside workerd) */
function mediaCache() {
  return typeof caches === 'undefined' ? null : (/** @type {any} */ (caches).default ?? null);
}

/**
 * Serve a GET /media/<src> from the cache, or from the root (and keep a 200 for next time).
 * Conditional and Range requests are answered by the cache from the whole file it holds.
 * @param {Request} request the viewer's request (its path inside the show)
 * @param {string} base `/s/<show>` or ''
 * @param {() => Promise<Response>} fromRoot
 * @param {Pick<ExecutionContext, 'waitUntil'>} ctx
 * @returns {Promise<Response>}
 */
export async function serveCachedMedia(request, base, fromRoot, ctx) {
  const cache = mediaCache();
  if (!cache || request.method !== 'GET') return fromRoot();
  const url = new URL(request.url);
  const key = cacheKey(url.origin, base, url.pathname.slice('/media/'.length));
  const hit = await cache.match(new Request(key, { headers: request.headers }));
  if (hit) {
    // The viewer gets the root's own caching rule, not the location's.
    const served = new Response(hit.body, hit);
    served.headers.set('cache-control', hit.headers.get(ROOT_RULE_HEADER) ?? 'public, max-age=3600');
    served.headers.delete(ROOT_RULE_HEADER);
    return served;
  }
  const response = await fromRoot();
  if (response.status !== 200 || request.headers.has('range') || request.headers.has('if-none-match')) return response;
  const stored = new Response(response.clone().body, response);
  stored.headers.set(ROOT_RULE_HEADER, response.headers.get('cache-control') ?? '');
  stored.headers.set('cache-control', `public, max-age=${CACHE_S}`);
  ctx.waitUntil(cache.put(key, stored).catch(() => {}));
  return response;
}

/**
 * After the venue replaced or deleted `/publish/media/<src>`: drop this location's copy.
 * @param {string} requestUrl
 * @param {string} pathname `/publish/media/<src>` inside the show
 * @param {string} base
 */
export async function forgetCachedMedia(requestUrl, pathname, base) {
  const cache = mediaCache();
  if (!cache) return;
  await cache.delete(cacheKey(new URL(requestUrl).origin, base, pathname.slice('/publish/media/'.length))).catch(() => false);
}
