// Score media (images, audio) on the edge, stored in the root object's SQLite database so the
// remote audience gets the same `media/<src>` URLs as the venue. The publisher uploads files
// (`PUT /publish/media/<src>`), asks what is there (`GET /publish/media`) and may delete
// (`DELETE /publish/media/<src>`); viewers read with `GET /media/<src>` (ETag, 304, Range).
//
// Storage: one row per file in `media` (path, size, sha256, type) and the bytes in
// `media_chunk`, 1 MiB per row (a stored value must stay under 2 MB), addressed by sha256 so
// a file replaced while someone downloads it never mixes old and new bytes, and identical files
// under two paths are stored once.

import { decodeMediaPath, mediaType } from '#core/protocol/media.js';
import { edgeError, json } from '../http/http.js';
import { MEDIA_CHUNK_BYTES, readMediaBody } from './media-body.js';
import { serveMedia } from './media-serve.js';

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the root object's storage (SQLite backend)
 * @param {{ fileBytes: number, totalBytes: number }} options.limits
 */
export function createMediaStore({ storage, limits }) {
  const sql = storage.sql;
  sql.exec(`CREATE TABLE IF NOT EXISTS media (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, sha256 TEXT NOT NULL, type TEXT NOT NULL, updated INTEGER NOT NULL)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS media_chunk (
    sha256 TEXT NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (sha256, n))`);

  /** @param {string} path */
  const find = (path) =>
    /** @type {{ size: number, sha256: string, type: string } | undefined} */ (
      sql.exec('SELECT size, sha256, type FROM media WHERE path = ?', path).toArray()[0]
    );

  const totalBytes = () => Number(sql.exec('SELECT COALESCE(SUM(size), 0) AS total FROM media').one().total);

  /** Drop chunks no file refers to any more. */
  const collect = () => sql.exec('DELETE FROM media_chunk WHERE sha256 NOT IN (SELECT sha256 FROM media)');

  function list() {
    const files = sql.exec('SELECT path AS src, size, sha256, type FROM media ORDER BY path').toArray();
    return { files, bytes: totalBytes(), limits: { ...limits, chunkBytes: MEDIA_CHUNK_BYTES } };
  }

  /**
   * @param {Request} request
   * @param {string} path decoded and checked
   */
  async function put(request, path) {
    const tooBig = () => edgeError('MEDIA_TOO_BIG', { message: `${path} is larger than the ${limits.fileBytes}-byte limit per file` });
    const declared = Number(request.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limits.fileBytes) return tooBig();
    const body = await readMediaBody(request.body, limits.fileBytes);
    if (!body) return tooBig();
    const expected = (request.headers.get('x-content-sha256') ?? '').trim().toLowerCase();
    if (expected && expected !== body.sha256) {
      return edgeError('SHA256_MISMATCH', {
        message: `the body's sha256 is ${body.sha256}, the x-content-sha256 header says ${expected}`,
      });
    }
    // From here on everything is synchronous: no other request can interleave between the quota
    // check and the write, and transactionSync makes the write all-or-nothing.
    const old = find(path);
    const after = totalBytes() - (old?.size ?? 0) + body.size;
    if (after > limits.totalBytes) {
      return edgeError('MEDIA_QUOTA', {
        message: `storing ${path} (${body.size} bytes) would bring this show's media to ${after} bytes, over the ${limits.totalBytes}-byte limit; delete files that are no longer used`,
      });
    }
    const type = mediaType(path);
    storage.transactionSync(() => {
      const known = sql.exec('SELECT COUNT(*) AS n FROM media_chunk WHERE sha256 = ?', body.sha256).one().n;
      if (Number(known) !== body.chunks.length) {
        sql.exec('DELETE FROM media_chunk WHERE sha256 = ?', body.sha256);
        body.chunks.forEach((chunk, n) => {
          sql.exec('INSERT INTO media_chunk (sha256, n, data) VALUES (?, ?, ?)', body.sha256, n, chunk.slice().buffer);
        });
      }
      sql.exec(
        'INSERT OR REPLACE INTO media (path, size, sha256, type, updated) VALUES (?, ?, ?, ?, ?)',
        path,
        body.size,
        body.sha256,
        type,
        Date.now(),
      );
      collect();
    });
    return json({ src: path, size: body.size, sha256: body.sha256, type, bytes: totalBytes() }, old ? 200 : 201);
  }

  /** @param {string} path */
  function remove(path) {
    const old = find(path);
    if (old) {
      storage.transactionSync(() => {
        sql.exec('DELETE FROM media WHERE path = ?', path);
        collect();
      });
    }
    return json({ src: path, deleted: Boolean(old), bytes: totalBytes() });
  }

  /** The store's rows for viewers' reads (media-serve.js). */
  const rows = {
    find,
    /** @param {string} sha256 @param {number} n */
    chunk: (sha256, n) =>
      /** @type {ArrayBuffer | undefined} */ (
        sql.exec('SELECT data FROM media_chunk WHERE sha256 = ? AND n = ?', sha256, n).toArray()[0]?.data
      ),
  };

  /**
   * /publish/media[/<src>] for the publisher (already authenticated by the Worker).
   * @param {Request} request
   * @param {string} rest the path after /publish/media, still percent-encoded ('' or '/<src>')
   */
  async function publish(request, rest) {
    if (rest === '' || rest === '/') {
      if (request.method !== 'GET')
        return edgeError('METHOD_NOT_ALLOWED', { message: '/publish/media answers GET (the list)', headers: { allow: 'GET' } });
      return json(list());
    }
    const path = decodeMediaPath(rest.slice(1));
    if (path === null) {
      return edgeError('BAD_MEDIA_PATH', {
        message:
          'a media path is relative, without empty, "." or ".." segments, backslashes or control characters, and at most 512 characters',
      });
    }
    if (request.method === 'PUT') return put(request, path);
    if (request.method === 'DELETE') return remove(path);
    return edgeError('METHOD_NOT_ALLOWED', { message: '/publish/media/<src> answers PUT and DELETE', headers: { allow: 'PUT, DELETE' } });
  }

  return {
    list,
    /**
     * GET/HEAD /media/<src> for viewers.
     * @param {Request} request
     * @param {string} raw the path after /media/, still percent-encoded
     */
    serve: (request, raw) => serveMedia(request, raw, rows),
    publish,
  };
}
