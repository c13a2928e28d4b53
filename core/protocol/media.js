// Score media over HTTP, the same on the venue server (local-server/src/routes/static.js) and
// on the edge worker (edge-worker/src/media/media.js): which request paths name a media file, the
// content type and cache lifetime it is served with, byte ranges and ETag checks. Runtime-free
// (no node:fs), so the Worker can use it too.

/** How long phones may keep a media file without asking again. */
export const MEDIA_MAX_AGE = 'public, max-age=3600';

/**
 * The Content-Security-Policy every media response carries, on the venue and on the edge. Media
 * is meant for <img>/<audio>; opened directly (a link to /media/x.svg) it must not run anything:
 * an SVG can hold scripts, and the media shares its origin with the audience page (docs/explanation/threat-model.md).
 */
export const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Longest media path accepted, in characters (after percent-decoding). */
export const MAX_MEDIA_PATH_CHARS = 512;

/** Content types by extension; anything else is served as application/octet-stream. */
export const MEDIA_TYPES = Object.freeze({
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.flac': 'audio/flac',
  '.webm': 'audio/webm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
});

/**
 * The relative media path a URL names, or null when it is not a plain relative path
 * (empty, absolute, `.`/`..` or empty segments, backslashes, control characters, too long).
 * @param {string} raw still percent-encoded
 * @returns {string | null}
 */
export function decodeMediaPath(raw) {
  let path;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (path === '' || path.length > MAX_MEDIA_PATH_CHARS) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path) || path.startsWith('/')) return null;
  if (path.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) return null;
  return path;
}

/**
 * @param {string} path a decoded media path
 * @returns {string}
 */
export function mediaType(path) {
  const dot = path.lastIndexOf('.');
  const ext = dot > path.lastIndexOf('/') ? path.slice(dot).toLowerCase() : '';
  return MEDIA_TYPES[/** @type {keyof typeof MEDIA_TYPES} */ (ext)] ?? 'application/octet-stream';
}

/**
 * A single `bytes=a-b` range (the only kind audio elements send); anything else is ignored.
 * @param {string | null | undefined} header
 * @param {number} size
 * @returns {{ start: number, end: number } | null | 'unsatisfiable'}
 */
export function parseRange(header, size) {
  if (typeof header !== 'string') return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start;
  let end;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Does an If-None-Match header name this ETag, one of these ETags, or *? Weak comparison, as
 * RFC 9110 asks for GET.
 * @param {string | null | undefined} header
 * @param {string | string[]} etags
 */
export function etagMatches(header, etags) {
  if (typeof header !== 'string') return false;
  const list = Array.isArray(etags) ? etags : [etags];
  const strip = (/** @type {string} */ t) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => strip(t) === '*' || list.includes(strip(t)));
}
