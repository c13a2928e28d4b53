// Where a page gets engraved pages (docs/reference/notation.md#notation-routes): the bar map and the
// SVG pages of a part for a page shape. The part page asks under its keyed URL for the shape that
// fits its screen; the audience page asks for the score media a view shows
// (docs/reference/notation.md#the-score-on-the-audiences-phones), the same on the venue and at
// the edge. Pages are kept in the Cache API ("tutti-notation", where the browser offers it: a
// secure context) under the bar map's hash, so a reload mid-show draws them without the network;
// elsewhere the HTTP cache (ETag) does what it can. A phone or tablet gets SVG only: it never
// loads Verovio.

import { isBarMap } from '#core/client/page-turns.js';
import { notationMapPath, notationPagePath } from '#core/score/audience-score.js';

const CACHE = 'tutti-notation';
/** Retry-After is honoured within these bounds (s) while the server engraves. */
const RETRY_S = { min: 1, max: 30 };

/**
 * The page shape for a screen: a tablet (shorter side ≥ 600 px) in landscape or portrait, else a phone.
 * @param {number} width CSS px
 * @param {number} height CSS px
 * @returns {'tablet-landscape' | 'tablet-portrait' | 'phone'}
 */
export function layoutFor(width, height) {
  if (Math.min(width, height) < 600) return 'phone';
  return width >= height ? 'tablet-landscape' : 'tablet-portrait';
}

/** A short, stable name for a text (FNV-1a): the cache key of a bar map's pages. */
function hashText(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/** The `message` of an error answer ({ error, message }), or '' when it has none. */
const sentence = async (res) => {
  try {
    const body = await res.json();
    return typeof body?.message === 'string' ? body.message.slice(0, 300) : '';
  } catch {
    return '';
  }
};

/**
 * A page names its music font by URL (docs/reference/notation.md#the-music-font), which an
 * <img> would not load: the font is fetched once (the Cache API keeps it: its URL names its
 * hash) and put into the page as a data: URL.
 */
const FONT_URL = /url\((\.\.\/font\/[A-Za-z0-9_-]{22}\.woff2)\)/;
/** @type {Map<string, Promise<string | null>>} font URL → data: URL */
const fonts = new Map();

async function fontData(url) {
  const cache = await openCache();
  let res = (await cache?.match(url)) ?? null;
  if (!res) {
    res = await fetch(url).catch(() => null);
    if (!res?.ok) return null;
    cache?.put(url, res.clone()).catch(() => {});
  }
  const blob = await res.blob();
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^;,]*/, 'data:font/woff2') : null);
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(blob);
  });
}

/** The page with its font URL replaced by the font itself (unchanged when it names none or it cannot be had). */
async function withFont(svg, pageUrl) {
  const named = FONT_URL.exec(svg);
  if (!named) return svg;
  const url = new URL(named[1], pageUrl).href;
  if (!fonts.has(url))
    fonts.set(
      url,
      fontData(url).then((d) => (d === null && fonts.delete(url), d)),
    );
  const data = await fonts.get(url);
  return data ? svg.replace(named[0], `url(${data})`) : svg;
}

const openCache = async () => {
  try {
    return globalThis.caches ? await caches.open(CACHE) : null;
  } catch {
    return null;
  }
};

/** The part page's URLs, under its key (relative to …/part/<key>/). */
const PART_PAGE_URLS = {
  map: (id, layout) => `notation/${encodeURIComponent(id)}.json?layout=${layout}`,
  page: (id, layout, n) => `notation/${encodeURIComponent(id)}/${n}.svg?layout=${layout}`,
};

/** The audience's URLs: score media (core/score/audience-score.js), relative to the audience page. */
export const AUDIENCE_URLS = {
  map: (id, layout) => `media/${notationMapPath(id, layout)}`,
  page: (id, layout, n) => `media/${notationPagePath(id, n, layout)}`,
};

/**
 * @param {{ base: string, urls?: typeof PART_PAGE_URLS, missingIsPending?: boolean }} options
 *   base: the page's URL (…/part/<key>/, or the audience page); urls: where the map and pages are
 *   (default: the part page's); missingIsPending: a 404 means "not there yet" (the audience at the
 *   edge, before the venue has uploaded the pages), asked again like a 503, and pages revalidated
 *   (media are cached for an hour, and a new engraving keeps the URL)
 */
export function createNotationSource({ base, urls = PART_PAGE_URLS, missingIsPending = false }) {
  let version = '';
  let generation = 0;

  /** The cache's key for a page URL: the URL plus the map it belongs to. */
  const keyOf = (url) => `${url}#${version}`;

  return {
    /**
     * The bar map of a part for a layout: `{ map }`, or `{ error, retryAfter?, message? }` (`none`:
     * the score has no notation; `busy`: being engraved; `mismatch`: it no longer fits the score;
     * `bad`: unusable; `message`: the server's sentence why).
     * The network first (a new score), the cached copy when the network is gone.
     * @param {string} partId a part id, or '*' (the full score)
     * @param {string} layout
     * @param {number} bars the score's performance bars (the map must have one entry each)
     */
    async map(partId, layout, bars) {
      const id = partId === '*' ? 'all' : partId;
      const url = new URL(urls.map(id, layout), base).href;
      const cache = await openCache();
      const mine = ++generation;
      let text = null;
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (res.status === 404 && !missingIsPending) return { error: 'none' };
        if (res.status === 503 || res.status === 404) {
          const after = Number(res.headers.get('retry-after'));
          return { error: 'busy', retryAfter: Math.min(Math.max(Number.isFinite(after) ? after : 2, RETRY_S.min), RETRY_S.max) };
        }
        // The server's one sentence (a file that cannot be engraved, or no longer fits the score).
        if (!res.ok) return { error: res.status === 409 ? 'mismatch' : 'bad', message: await sentence(res) };
        text = await res.text();
        cache?.put(url, new Response(text, { headers: { 'content-type': 'application/json' } })).catch(() => {});
      } catch {
        text = (await (await cache?.match(url))?.text()) ?? null;
        if (text === null) return { error: 'offline' };
      }
      let map;
      try {
        map = JSON.parse(text);
      } catch {
        return { error: 'bad' };
      }
      if (!isBarMap(map, bars)) return { error: 'mismatch' };
      if (mine === generation) version = hashText(text);
      return { map, pageUrl: (n) => new URL(urls.page(id, layout, n), base).href };
    },
    /**
     * Page `url` as a data: URL for an <img> (the page's CSP allows 'self' and data: images; an
     * <img> never runs what an SVG holds). Cache first, then the network.
     * @param {string} url
     * @returns {Promise<string | null>}
     */
    async page(url) {
      const cache = await openCache();
      let svg = (await (await cache?.match(keyOf(url)))?.text()) ?? null;
      if (svg === null) {
        try {
          const res = await fetch(url, missingIsPending ? { cache: 'no-cache' } : undefined);
          if (!res.ok) return null;
          svg = await res.text();
        } catch {
          return null;
        }
        cache?.put(keyOf(url), new Response(svg, { headers: { 'content-type': 'image/svg+xml' } })).catch(() => {});
      }
      return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await withFont(svg, url))}`;
    },
  };
}
