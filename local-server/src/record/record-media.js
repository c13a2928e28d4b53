// The media a performance record's audience had (docs/how-to/record-and-replay.md#replaying-a-record): which score
// folders the record played from, and which media paths its envelopes named (a view's image, a
// sound cue, the score's media list). The console's replay fetches a file only when the record
// named it, from the folder of the score that was loaded at that moment; the file itself is
// resolved by media-file.js, as the venue's /media/* resolves it.

import path from 'node:path';

/** The prefix the audience's media URLs carry (core/score/audience-view.js mediaUrl). */
const MEDIA_PREFIX = 'media/';

/**
 * @typedef {{ scores: string[], named: Set<string> }} RecordMedia
 *   scores: the folder of each score the record names, in order (its `open` and `score` entries);
 *   named: every media path (relative to a score's folder) the audience was sent
 */

/** Computed once per read of a record (record-cache.js keeps the same entries array). */
const byEntries = new WeakMap();

/** @param {Set<string>} named @param {unknown} url a `media/<src>` URL from an envelope */
function addUrl(named, url) {
  if (typeof url === 'string' && url.startsWith(MEDIA_PREFIX)) named.add(url.slice(MEDIA_PREFIX.length));
}

/**
 * The score folders and media paths of a record's entries (record-reader.js readRecord).
 * @param {any[]} entries
 * @returns {RecordMedia}
 */
export function recordMedia(entries) {
  const known = byEntries.get(entries);
  if (known) return known;
  /** @type {string[]} */
  const scores = [];
  const named = new Set();
  for (const entry of entries) {
    if (entry.k === 'open' || entry.k === 'score') {
      // Every entry that names a score counts, so the console's index (replay-player.js) matches.
      scores.push(typeof entry.score?.path === 'string' ? path.dirname(entry.score.path) : '');
    } else if (entry.k === 'env') {
      // A snapshot holds the whole state and a patch only what changed: both name media the same way.
      const data = entry.e?.data;
      addUrl(named, data?.view?.image);
      addUrl(named, data?.audio?.src);
      if (Array.isArray(data?.score?.media)) for (const url of data.score.media) addUrl(named, url);
    }
  }
  const media = { scores, named };
  byEntries.set(entries, media);
  return media;
}
