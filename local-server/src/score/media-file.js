// Where a score's media file really is on disk, and the check that it stays inside the score's
// folder. A score folder may come from someone else (a zip, a git clone): a symbolic link such
// as `media/leak.wav -> /etc/passwd` must not turn the show server into a file server for the
// laptop (docs/explanation/threat-model.md#bad-input-never-crashes-the-server-and-never-reaches-another-client). Used by the score loader (score-file.js), the venue's
// `/media/*` route (routes/static.js) and the edge media upload (edge/media-sync.js), so all
// three refuse exactly the same files.

import { constants } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * Open flags for reading a resolved media file: the real path has no links left in it, so a
 * link that appears at its last component between the check and the read makes the read fail
 * (ELOOP) instead of following it. O_NOFOLLOW is 0 where the platform lacks it (Windows).
 */
export const MEDIA_READ_FLAGS = /** @type {string} */ (/** @type {unknown} */ (constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)));
// (typed as the string form Node's types expect for `flags`; fs accepts the number form as well)

/**
 * When ok: `file` (the real path), `size`, `mtimeMs`. Otherwise `reason` and a sentence for the user.
 * @typedef {{ ok: boolean, file?: string, size?: number, mtimeMs?: number,
 *   reason?: 'missing' | 'outside' | 'not-file', message?: string }} ResolvedMediaFile
 */

/** @param {string} parent @param {string} child */
function isInside(parent, child) {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Resolve `src` (a path relative to the score's folder `dir`) to the real file it names,
 * following every symbolic link, and accept it only when that real file is a regular file
 * inside the real score folder. Links that stay inside the folder are fine; links that leave it
 * (absolute or through `..`) are refused with reason "outside". Never throws.
 * @param {string} dir the score's folder
 * @param {string} src the asset's `src`
 * @returns {Promise<ResolvedMediaFile>}
 */
export async function resolveMediaFile(dir, src) {
  const target = resolve(dir, src);
  // The validator forbids ".." and absolute paths; this is the belt to those braces.
  if (!isInside(resolve(dir), target)) return { ok: false, reason: 'outside', message: `${src} is outside the score's folder` };
  let realDir;
  let realTarget;
  try {
    realDir = await realpath(dir);
    realTarget = await realpath(target);
  } catch (error) {
    const why =
      /** @type {NodeJS.ErrnoException} */ (error)?.code === 'ENOENT'
        ? 'not found'
        : `unreadable (${/** @type {Error} */ (error)?.message})`;
    return { ok: false, reason: 'missing', message: `file ${src} ${why} next to the score (looked for ${target})` };
  }
  if (!isInside(realDir, realTarget)) {
    return {
      ok: false,
      reason: 'outside',
      message: `${src} is a link to ${realTarget}, outside the score's folder; copy the file into the folder instead`,
    };
  }
  let info;
  try {
    info = await stat(realTarget);
  } catch {
    return { ok: false, reason: 'missing', message: `file ${src} not found next to the score (looked for ${target})` };
  }
  if (!info.isFile()) return { ok: false, reason: 'not-file', message: `${src} is not a file (looked at ${target})` };
  return { ok: true, file: realTarget, size: info.size, mtimeMs: info.mtimeMs };
}
