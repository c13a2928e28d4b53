// One comparison + upload pass of the media sync (media-sync.js): the score's files against
// what the edge holds (sha256 per path), files over the edge's per-file limit skipped with one
// warning, earlier scores' files removed first when the upload would go over the show's quota,
// then the missing or changed files uploaded a few at a time.

import { HttpError } from './edge-media-client.js';
import { createLocalMedia, readMediaBytes } from './local-media.js';

/** @param {number} n */
const kb = (n) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * @typedef {import('./local-media.js').LocalMediaFile} LocalMediaFile
 * @typedef {Map<string, { size: number, sha256: string }>} EdgeHoldings src → what the edge holds
 */

/** @param {import('./edge-media-client.js').EdgeMediaList} list */
const holdingsOf = (list) => /** @type {EdgeHoldings} */ (new Map((list.files ?? []).map((f) => [f.src, f])));

/**
 * @param {object} options
 * @param {() => import('./media-sync.js').MediaSource | null} options.source
 * @param {import('./edge-media-client.js').EdgeMediaClient} options.client
 * @param {import('./media-sync.js').MediaSyncStatus} options.current updated as files reach the edge
 * @param {number} options.concurrency uploads in flight at once
 * @param {AbortSignal} options.signal the sync is closing
 * @param {(message: string) => void} options.info
 * @param {(message: string) => void} options.warn
 * @returns {() => Promise<boolean>} one pass; true when everything that can be uploaded is on the edge
 */
export function createMediaPass({ source, client, current, concurrency, signal, info, warn }) {
  const describeLocal = createLocalMedia({ warn });
  /** @type {Set<string>} `${src}:${sha256}` refusals already logged */
  const refused = new Set();

  /**
   * Log a refusal once per file version.
   * @param {LocalMediaFile} f
   * @param {string} message
   */
  function refuse(f, message) {
    if (!refused.has(`${f.src}:${f.sha256}`)) warn(message);
    refused.add(`${f.src}:${f.sha256}`);
  }

  /**
   * Upload `need`, `concurrency` at a time; false when some upload should be tried again.
   * @param {LocalMediaFile[]} need
   * @param {EdgeHoldings} have updated as uploads finish
   * @param {() => void} count recount what the edge holds
   */
  async function uploadAll(need, have, count) {
    let transient = false;
    const queue = need.slice();
    const worker = async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        try {
          const { bytes, sha256 } = f.bytes ? { bytes: f.bytes, sha256: f.sha256 } : await readMediaBytes(f.file);
          await client.put(f.src, bytes, sha256);
          have.set(f.src, { size: bytes.length, sha256 });
          if (sha256 !== f.sha256) transient = true; // changed on disk meanwhile: compare again
          count();
          info(`${current.uploaded}/${current.total} on the edge (${f.src}, ${kb(bytes.length)})`);
        } catch (err) {
          if (signal.aborted) return;
          current.lastError = `UPLOAD ${f.src}: ${messageOf(err)}`;
          if (err instanceof HttpError && err.permanent) refuse(f, `the edge refused ${f.src}: ${messageOf(err)}`);
          else {
            transient = true;
            warn(`upload of ${f.src} failed (${messageOf(err)}); will retry`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, need.length)) }, worker));
    return !transient;
  }

  return async function pass() {
    const media = source();
    const local = media ? await describeLocal(media) : [];
    const made = local.filter((f) => f.bytes).length;
    current.total = media ? new Set((media.assets ?? []).map((a) => a.src)).size + made : 0;
    current.checked = true;
    if (!local.length) {
      Object.assign(current, { uploaded: 0, bytes: 0 });
      return true;
    }
    let remote = await client.list();
    let have = holdingsOf(remote);
    const matches = (/** @type {LocalMediaFile} */ f) => have.get(f.src)?.sha256 === f.sha256;
    const count = () => {
      const on = local.filter(matches);
      Object.assign(current, { uploaded: on.length, bytes: on.reduce((sum, f) => sum + f.size, 0) });
    };
    count();
    const limits = remote.limits ?? {};
    const need = local.filter((f) => {
      if (matches(f)) return false;
      if (Number.isFinite(limits.fileBytes) && f.size > /** @type {number} */ (limits.fileBytes)) {
        refuse(
          f,
          `${f.src} is ${kb(f.size)}, over the edge's ${kb(/** @type {number} */ (limits.fileBytes))} per file: remote viewers will not get it`,
        );
        return false;
      }
      return true;
    });
    if (!need.length) return true;

    // Over the show's quota once uploaded? Remove what the current score no longer uses first.
    const wanted = new Set(local.map((f) => f.src));
    const projected = (remote.bytes ?? 0) + need.reduce((sum, f) => sum + f.size - (have.get(f.src)?.size ?? 0), 0);
    if (Number.isFinite(limits.totalBytes) && projected > /** @type {number} */ (limits.totalBytes)) {
      const stale = [...have.keys()].filter((src) => !wanted.has(src));
      for (const src of stale) await client.remove(src);
      if (stale.length) info(`removed ${stale.length} file(s) of earlier scores from the edge to make room`);
      remote = await client.list();
      have = holdingsOf(remote);
    }

    const total = need.reduce((sum, f) => sum + f.size, 0);
    info(`uploading ${need.length} file(s), ${kb(total)} (${current.uploaded}/${current.total} already there)`);
    return uploadAll(need, have, count);
  };
}
