// GET/HEAD /media/<src> for viewers (docs/reference/publisher-protocol.md#score-media): the venue's headers
// (type, ETag, cache, CSP), 304 on a matching If-None-Match, one byte range → 206, and the bytes
// streamed one stored chunk row at a time as the client reads (media.js stores them).

/* global FixedLengthStream -- workerd: a stream with a known length, so responses carry content-length */
import { MEDIA_CSP, MEDIA_MAX_AGE, decodeMediaPath, etagMatches, parseRange } from '#core/protocol/media.js';
import { CORS, edgeError } from '../http/http.js';
import { MEDIA_CHUNK_BYTES } from './media-body.js';

/**
 * @typedef {{ size: number, sha256: string, type: string }} StoredFile
 * @typedef {{ find: (path: string) => StoredFile | undefined, chunk: (sha256: string, n: number) => ArrayBuffer | undefined }} MediaRows
 */

/**
 * The bytes [start, end] of a stored file, read one chunk row at a time as the client reads.
 * @param {MediaRows} rows
 * @param {string} sha256
 * @param {number} start
 * @param {number} end inclusive
 */
function bodyStream(rows, sha256, start, end) {
  let n = Math.floor(start / MEDIA_CHUNK_BYTES);
  const last = Math.floor(end / MEDIA_CHUNK_BYTES);
  const source = new ReadableStream({
    pull(controller) {
      const data = rows.chunk(sha256, n);
      if (!data) {
        controller.error(new Error('the file was replaced while it was being read'));
        return;
      }
      const base = n * MEDIA_CHUNK_BYTES;
      const bytes = new Uint8Array(data);
      controller.enqueue(bytes.subarray(Math.max(0, start - base), Math.min(bytes.byteLength, end - base + 1)));
      n += 1;
      if (n > last) controller.close();
    },
  });
  const fixed = new FixedLengthStream(end - start + 1);
  source.pipeTo(fixed.writable).catch(() => {});
  return fixed.readable;
}

/**
 * @param {Request} request
 * @param {string} raw the path after /media/, still percent-encoded
 * @param {MediaRows} rows the media store's tables
 */
export function serveMedia(request, raw, rows) {
  const path = decodeMediaPath(raw);
  const file = path === null ? undefined : rows.find(path);
  if (!file) return edgeError('NOT_FOUND', { headers: CORS });
  const etag = `"${file.sha256}"`;
  /** @type {Record<string, string>} */
  const headers = {
    'content-type': file.type,
    'cache-control': MEDIA_MAX_AGE,
    etag,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': MEDIA_CSP,
    ...CORS,
  };
  if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  const range = file.size === 0 ? null : parseRange(request.headers.get('range'), file.size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${file.size}` } });
  }
  const head = request.method === 'HEAD';
  if (range) {
    const rangeHeaders = { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${file.size}` };
    return new Response(head ? null : bodyStream(rows, file.sha256, range.start, range.end), { status: 206, headers: rangeHeaders });
  }
  if (head || file.size === 0) return new Response(head ? null : new Uint8Array(0), { status: 200, headers });
  return new Response(bodyStream(rows, file.sha256, 0, file.size - 1), { status: 200, headers });
}
