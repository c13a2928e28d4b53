// The Worker: a tiny router. Static files (the audience app) never reach it (see
// `run_worker_first` in wrangler.jsonc); live routes go to the show's objects.

import { refusePublisher } from './guards/publish-guard.js';
import { tooBigReply } from './show/publisher-frames.js';
import { openStream, releaseWhenDone } from './guards/address-caps.js';
import { forgetCachedMedia, serveCachedMedia } from './media/media-cache.js';
import { readMediaBody } from './media/media-body.js';
import { classifyClient } from './guards/venue-address.js';
import { refuseJoin, serveSession } from './guards/viewer-session.js';
import { MAX_PUBLISH_FRAME_BYTES, readConfig } from './env/config.js';
import { createFeedCaches } from './http/feed-caches.js';
import { AUDIENCE_METHODS } from '#core/protocol/http-errors.js';
import { parseStreamQuery } from '#core/stream/query.js';
import { CORS, edgeError, isWebSocketUpgrade, json } from './http/http.js';
import { servePoll } from './http/poll.js';
import { serveSse } from './http/sse.js';
import { parseShowPath, withPath } from './http/show-path.js';
import { serveShowAsset } from './http/show-assets.js';
import { isShowServed } from './guards/show-allowlist.js';
import { countRequestRefusal } from './guards/refusal-counter.js';
import { rootStub } from './env/stubs.js';
import { connectViewer } from './http/viewers.js';
import { serveVote } from './votes/vote-route.js';

export { Show } from './show/show.js';
export { Shard } from './shard/shard.js';

/** @type {ReturnType<typeof createFeedCaches> | null} one per isolate, created on first use */
let feedCaches = null;

/**
 * @param {ReturnType<typeof readConfig>} config
 * @param {string | null} show
 * @param {URL} [url] the viewer's request: `?stream=lean` reads the lean stream's cache (lean-feed.js)
 */
function cacheFor(config, show, url) {
  feedCaches ??= createFeedCaches({ ttlMs: config.feedTtlMs, limit: config.replayLimit });
  return feedCaches.forShow(show, url?.searchParams.get('stream') === 'lean' ? 'lean' : 'full');
}

/**
 * 503 UNAVAILABLE: the show's objects did not answer (the client tries again after 2 s).
 * @param {string} what
 * @param {unknown} err
 * @param {Record<string, string>} [headers]
 */
const unreachable = (what, err, headers = {}) =>
  edgeError('UNAVAILABLE', {
    message: `${what} is not reachable right now: ${err instanceof Error ? err.message : String(err)}`,
    headers: { 'retry-after': '2', ...headers },
  });

const AUDIENCE_ROUTES = new Set(['/ws', '/sse', '/poll', '/time', '/healthz']);

/**
 * GET /media/<src>: the score's media, from the root's storage (see media.js).
 * @param {Request} request
 * @param {Env} env
 * @param {string | null} show
 * @param {string} base `/s/<show>` or '' (the cache key, media-cache.js)
 * @param {Pick<ExecutionContext, 'waitUntil'>} ctx
 */
async function serveMedia(request, env, show, base, ctx) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return edgeError('METHOD_NOT_ALLOWED', { headers: { allow: AUDIENCE_METHODS, ...CORS } });
  }
  try {
    // From the location's cache when it can (media-cache.js): not one root request per viewer.
    return await serveCachedMedia(request, base, () => rootStub(env, show).fetch(request), ctx);
  } catch (err) {
    return unreachable('media', err, CORS);
  }
}

export default {
  /**
   * @param {Request} request
   * @param {Env} env
   * @param {ExecutionContext} ctx
   */
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const where = parseShowPath(url.pathname);
    // docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge: /s/<show>/… is the same set of routes for a show
    // of its own; every other path is the default show, exactly as before.
    if (where.kind === 'default') return showRoutes.serve(request, env, null, '', ctx);
    if (where.kind === 'bad') return edgeError('BAD_SHOW', { message: where.message, headers: CORS });
    if (!isShowServed(env, where.show))
      return edgeError('NO_SUCH_SHOW', { message: `this edge serves no show "${where.show}"`, headers: CORS });
    // The page's relative URLs (ws, sse, media/…) only land in the show from its folder.
    if (where.rest === '') return new Response(null, { status: 308, headers: { location: `${where.base}/${url.search}`, ...CORS } });
    return showRoutes.serve(withPath(request, where.rest), env, where.show, where.base, ctx);
  },
};

const showRoutes = {
  /**
   * Every route of one show; `request`'s path is the path inside the show.
   * @param {Request} request
   * @param {Env} env
   * @param {string | null} show null: the default show
   * @param {string} [base] `/s/<show>` for a named show
   * @param {Pick<ExecutionContext, 'waitUntil'>} [ctx] the request's context (counts refusals after the response)
   */
  async serve(request, env, show, base = '', ctx = { waitUntil: () => {} }) {
    const url = new URL(request.url);
    const config = readConfig(env);

    if (url.pathname === '/publish' || url.pathname.startsWith('/publish/')) {
      // Every /publish… route of a show (socket, POST, media) has the same rule (publish-token.js).
      // The token (at least 16 characters), guessing throttled per address (publish-guard.js).
      const refused = await refusePublisher(request, env, show);
      if (refused) return refused;
      // A declared-oversize upload is refused here, before its body is streamed on to the root
      // object: the root answering 413 while the body is still arriving made workerd's forward
      // fail with a 500 now and then (seen under load in test/edge/media.test.js).
      const declared = Number(request.headers.get('content-length') ?? NaN);
      const mediaUpload = request.method === 'PUT' && url.pathname.startsWith('/publish/media/');
      const tooBig = () =>
        edgeError('MEDIA_TOO_BIG', { message: `the upload is larger than the ${config.mediaFileBytes}-byte limit per file` });
      if (mediaUpload && declared > config.mediaFileBytes) return tooBig();
      // A streamed upload (no content-length) is read here up to the cap, for the same reason:
      // the root then only ever sees a whole body of known length, never answers mid-body.
      if (mediaUpload && !Number.isFinite(declared) && request.body) {
        const body = await readMediaBody(request.body, config.mediaFileBytes);
        if (!body) return tooBig();
        request = new Request(request, { body: new Blob(body.chunks) });
      }
      if (request.method === 'POST' && url.pathname === '/publish' && declared > MAX_PUBLISH_FRAME_BYTES) {
        return json(tooBigReply(), 413);
      }
      try {
        const response = await rootStub(env, show).fetch(request);
        if (response.ok && request.method !== 'GET' && url.pathname.startsWith('/publish/media/'))
          ctx.waitUntil(forgetCachedMedia(request.url, url.pathname, base));
        return response;
      } catch (err) {
        return unreachable('the show', err);
      }
    }
    // A viewer joins (viewer-session.js): the signed session its POST /vote must carry.
    if (url.pathname === '/session') return serveSession(request, env, show);

    if (url.pathname.startsWith('/media/')) return serveMedia(request, env, show, base, ctx);
    // A malformed vote is counted per isolate and reported to the root later (refusal-counter.js).
    if (url.pathname === '/vote') return serveVote(request, env, config, show, (kind) => countRequestRefusal(env, ctx, show, kind));
    if (!AUDIENCE_ROUTES.has(url.pathname)) return show === null ? env.ASSETS.fetch(request) : serveShowAsset(request, env, base);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return edgeError('METHOD_NOT_ALLOWED', { headers: { allow: AUDIENCE_METHODS, ...CORS } });
    }

    try {
      switch (url.pathname) {
        case '/ws': {
          // The shard reads `stream` again to pick the viewer's stream (viewer-streams.js); a
          // value that is neither is refused here, as the venue does.
          const query = parseStreamQuery({ stream: url.searchParams.get('stream') });
          if (!query.ok) return edgeError(query.code, { headers: CORS });
          if (!isWebSocketUpgrade(request)) return edgeError('UPGRADE_REQUIRED', { headers: CORS });
          // Every socket is a join, limited per address (viewer-session.js), and capped per address on its shard.
          const client = await classifyClient(request, env, show);
          const refused = await refuseJoin(request, env, show, client);
          if (refused) return refused;
          return await connectViewer(request, env, config, show, client.kind === 'public' ? client.address : null);
        }
        case '/sse':
        case '/poll':
          return await serveStream(request, url, env, config, show);
        case '/time': {
          // On the venue's clock, like every time in the state (venue-clock.js); the offset comes
          // with the feed cache, one root RPC per FEED_TTL_MS at most.
          const { clockOffset } = await cacheFor(config, show).current(rootStub(env, show));
          return json({ s: Date.now() - clockOffset }, 200, CORS);
        }
        default: {
          // /healthz; ?deep=1 also asks the root (epoch, seq, viewers per shard). The venue's
          // status comes from the feed cache: at most one root RPC per FEED_TTL_MS.
          // The root's own view costs a root request: the publisher's, not everyone's.
          if (url.searchParams.get('deep') === '1') {
            const refused = await refusePublisher(request, env, show);
            return refused ?? json({ ok: true, show: await rootStub(env, show).stats() }, 200, CORS);
          }
          const { venue } = await cacheFor(config, show).current(rootStub(env, show));
          return json(
            { ok: true, service: 'tutti-edge', venue: venue.status, venueSince: venue.since || null, ...(show === null ? {} : { show }) },
            200,
            CORS,
          );
        }
      }
    } catch (err) {
      return unreachable('the show', err, CORS);
    }
  },
};

/**
 * GET /sse and /poll: at most ADDRESS_MAX_STREAMS open at once per public address in this
 * isolate (address-caps.js); the venue's address and loopback are not capped.
 * @param {Request} request
 * @param {URL} url
 * @param {Env} env
 * @param {ReturnType<typeof readConfig>} config
 * @param {string | null} show
 */
async function serveStream(request, url, env, config, show) {
  const client = await classifyClient(request, env, show);
  const capped = client.kind === 'public';
  const release = capped ? openStream(client.address, config.addressMaxStreams) : () => {};
  if (!release)
    return edgeError('TOO_MANY_STREAMS', {
      message: `this address already holds ${config.addressMaxStreams} open streams; close one first`,
      headers: {
        'retry-after': '5',
        ...CORS,
      },
    });
  try {
    const deps = { cache: cacheFor(config, show, url), root: rootStub(env, show), tickMs: config.feedTtlMs };
    const response = url.pathname === '/sse' ? serveSse(request, { ...deps, maxMs: config.sseMaxMs }) : await servePoll(url, deps);
    return capped ? releaseWhenDone(response, release) : response;
  } catch (err) {
    release();
    throw err;
  }
}
