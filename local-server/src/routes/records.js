// The console's performance records (docs/how-to/record-and-replay.md#the-performance-record): the list of past
// records, each one's report, its entries page by page for the console's replay and the media
// files its audience had, on the control listener behind the bearer token.

import { createReadStream } from 'node:fs';
import path from 'node:path';
import { listRecords, RecordError } from '../record/record-reader.js';
import { RECORD_ID } from '../record/record-writer.js';
import { sendError } from './send-error.js';
import { createRecordThread } from '../record/record-thread.js';
import { MEDIA_READ_FLAGS, resolveMediaFile } from '../score/media-file.js';
import { MEDIA_CSP, decodeMediaPath, etagMatches, mediaType } from '#core/protocol/media.js';

/** Entries per page of `GET /api/records/<id>/entries` unless `limit` says otherwise (and at most). */
export const ENTRIES_PAGE = 2000;
export const ENTRIES_PAGE_MAX = 10_000;

/** 400s the control listener's error handler answers and counts as bad input (routes/control.js). */
const badQuery = (message) => Object.assign(new Error(message), { statusCode: 400, code: 'BAD_QUERY' });
const badMediaPath = () =>
  Object.assign(new Error('a media path is relative, without empty, "." or ".." segments'), { statusCode: 400, code: 'BAD_MEDIA_PATH' });

/**
 * `?from=N&limit=M` of the entries route; anything else is a 400 BAD_QUERY.
 * @param {Record<string, unknown>} query
 */
function pageOf(query) {
  for (const key of Object.keys(query)) if (key !== 'from' && key !== 'limit') throw badQuery(`unknown parameter "${key.slice(0, 20)}"`);
  const number = (key, fallback, min, max) => {
    const raw = query[key];
    if (raw === undefined) return fallback;
    const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= min && n <= max)) throw badQuery(`"${key}" must be a whole number from ${min} to ${max}`);
    return n;
  };
  return { from: number('from', 0, 0, 999_999_999), limit: number('limit', ENTRIES_PAGE, 1, ENTRIES_PAGE_MAX) };
}

/**
 * `?score=N` of the media route: which of the record's scores (0 = the first it names), or null
 * for the last one. Anything else is a 400 BAD_QUERY.
 * @param {Record<string, unknown>} query
 * @returns {number | null}
 */
function scoreIndexOf(query) {
  for (const key of Object.keys(query)) if (key !== 'score') throw badQuery(`unknown parameter "${key.slice(0, 20)}"`);
  const raw = query.score;
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw)) throw badQuery('"score" must be a whole number from 0 to 9999');
  return Number(raw);
}

/**
 * The media path of `/api/records/<id>/media/<path>`, from the raw URL so that it is decoded
 * exactly once (core/protocol/media.js decodeMediaPath); a path that climbs, is absolute or
 * malformed is a 400 BAD_MEDIA_PATH.
 * @param {string} url
 */
function mediaPathOf(url) {
  const raw = url.split('?')[0].split('/').slice(5).join('/');
  const rel = decodeMediaPath(raw);
  if (rel === null) throw badMediaPath();
  return rel;
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ recordDir: string | null, onOutside?: (src: string) => void }} options recordDir: where this
 *   server writes its records (null: it records nothing); onOutside: told when a media file the
 *   replay asks for links outside its score's folder (media-link-warning.js)
 */
export default async function recordRoutes(app, { recordDir, onOutside = () => {} }) {
  // Read and rendered on a worker thread, so a long record never stalls the show (record-thread.js).
  const records = createRecordThread();
  app.addHook('onClose', () => records.close());
  const noSuchRecord = (reply, id) => sendError(reply, 'NO_SUCH_RECORD', { message: `no performance record "${String(id).slice(0, 40)}"` });

  // The console's replay (docs/how-to/record-and-replay.md#replaying-a-record): every entry in the order written —
  // envelopes, actions, votes, samples — `limit` at a time from entry `from`; `next` is the
  // `from` of the next page, null after the last.
  app.get('/api/records/:id/entries', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    const { from, limit } = pageOf(/** @type {Record<string, unknown>} */ (request.query));
    if (!recordDir || !RECORD_ID.test(id)) return noSuchRecord(reply, id);
    try {
      const { total, torn, entries: page } = await records.entries(path.join(recordDir, id), from, limit);
      const next = from + page.length < total ? from + page.length : null;
      return { id, total, torn, from, next, entries: page };
    } catch (err) {
      if (err instanceof RecordError) return sendError(reply, 'NO_SUCH_RECORD', { message: err.message.replace(recordDir, 'records') });
      throw err;
    }
  });

  // The replay's images and sounds (docs/how-to/record-and-replay.md#replaying-a-record): a file the record's
  // envelopes named, from the folder of the record's score `?score=N` (default: its last one),
  // resolved as the venue's /media/* is (media-file.js: no link out of the folder). The bytes of
  // a past show's file can change on disk, so it is revalidated on every use (ETag, no-cache).
  app.get('/api/records/:id/media/*', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    const index = scoreIndexOf(/** @type {Record<string, unknown>} */ (request.query));
    const rel = mediaPathOf(request.url);
    if (!recordDir || !RECORD_ID.test(id)) return noSuchRecord(reply, id);
    let media;
    try {
      media = await records.media(path.join(recordDir, id));
    } catch (err) {
      if (err instanceof RecordError) return sendError(reply, 'NO_SUCH_RECORD', { message: err.message.replace(recordDir, 'records') });
      throw err;
    }
    const noSuchMedia = (why) => sendError(reply, 'NO_SUCH_MEDIA', { message: `${rel.slice(0, 80)}: ${why}` });
    if (!media.named.has(rel)) return noSuchMedia('the record names no such media file');
    const dir = index === null ? media.scores.at(-1) : media.scores[index];
    if (!dir) return noSuchMedia(index === null ? 'the record names no score folder' : `the record has no score ${index}`);
    const info = await resolveMediaFile(dir, rel);
    if (info.reason === 'outside') onOutside(rel);
    if (!info.ok)
      return noSuchMedia(info.reason === 'outside' ? "it links outside the score's folder" : 'the file is no longer next to the score');
    const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    reply
      .header('content-type', mediaType(rel))
      .header('cache-control', 'private, no-cache')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP);
    if (etagMatches(request.headers['if-none-match'], [etag])) return reply.code(304).send();
    return reply.header('content-length', info.size).send(createReadStream(/** @type {string} */ (info.file), { flags: MEDIA_READ_FLAGS }));
  });

  app.get('/api/records', async () => ({
    dir: recordDir,
    records: recordDir ? listRecords(recordDir).map(({ dir: _dir, ...r }) => r) : [],
  }));

  app.get('/api/records/:id/report', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    if (!recordDir || !RECORD_ID.test(id)) return noSuchRecord(reply, id);
    try {
      const { html } = await records.report(path.join(recordDir, id));
      return reply
        .type('text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="tutti-report-${id}.html"`)
        .send(html);
    } catch (err) {
      if (err instanceof RecordError) return sendError(reply, 'NO_SUCH_RECORD', { message: err.message.replace(recordDir, 'records') });
      throw err;
    }
  });
}
