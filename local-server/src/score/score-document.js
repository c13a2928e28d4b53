// The score file the console edits (docs/reference/score-editing-api.md): read as written with
// its revision, and saved only when valid (the rules of `tutti validate`), unchanged on disk
// since it was read, and the show stopped (or the composer asks to apply it at once). The write
// is atomic with the previous version kept as FILE.bak, never through a link
// (files/safe-write.js). Saves run one at a time.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkScoreIn, MAX_SCORE_FILE_BYTES } from './score-file.js';
import { refuseSymlink, replaceFile } from '../files/safe-write.js';
import { revisionOf, scoreText } from './score-text.js';

/** Where the previous version is kept (docs/reference/score-editing-api.md#backup). */
export const backupPath = (/** @type {string} */ file) => `${file}.bak`;

/**
 * @typedef {{ path: string, revision: string | null, score: unknown, problem: string | null }} ScoreDocument
 * @typedef {{ ok: true, path: string, revision: string, applied: 'loaded' | 'live', notApplied?: string }
 *   | { ok: false, code: 'INVALID_SCORE', problems: Array<{ path: string, message: string }> }
 *   | { ok: false, code: 'STALE_REVISION', currentRevision: string | null, message?: string }
 *   | { ok: false, code: 'PLAYING', message?: string }
 *   | { ok: false, code: 'SYMLINK_REFUSED', message: string }} SaveResult
 */

/**
 * The file's bytes, null when it is absent, or `{ problem }` when it is no score file to edit
 * (a folder, a device, over the size limit). A link is read; only writes refuse one.
 * @param {string} file
 * @returns {Promise<Buffer | null | { problem: string }>}
 */
async function currentBytes(file) {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { problem: `${file} is not a regular file` };
    if (info.size > MAX_SCORE_FILE_BYTES) return { problem: `${file} is over ${MAX_SCORE_FILE_BYTES / 1048576} MB` };
    return await readFile(file);
  } catch (error) {
    if (/** @type {any} */ (error).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * @param {{ show: import('../show/show.js').Show, log: { info: (msg: string) => void } }} options
 */
export function createScoreDocument({ show, log }) {
  const file = () => path.resolve(show.source().path);
  let queue = Promise.resolve();
  /**
   * One save at a time: a second waits for the first, then sees its revision.
   * @template T
   * @param {() => Promise<T>} job
   * @returns {Promise<T>}
   */
  const serial = (job) => {
    const run = queue.then(job, job);
    queue = run.then(
      () => {},
      () => {},
    );
    return run;
  };
  const underWay = () => {
    const status = show.engine.status();
    return status.transport !== 'stopped' || Boolean(status.countIn);
  };

  /** @returns {Promise<ScoreDocument>} */
  async function read() {
    const target = file();
    const bytes = await currentBytes(target);
    if (bytes === null) return { path: target, revision: null, score: null, problem: `${target} does not exist` };
    if (!Buffer.isBuffer(bytes)) return { path: target, revision: null, score: null, problem: bytes.problem };
    try {
      const text = bytes.toString('utf8');
      return { path: target, revision: revisionOf(bytes), score: JSON.parse(text.replace(/^\uFEFF/, '')), problem: null };
    } catch (error) {
      return { path: target, revision: revisionOf(bytes), score: null, problem: `not JSON: ${/** @type {Error} */ (error).message}` };
    }
  }

  /**
   * @param {{ revision: string | null, score: unknown, apply?: boolean }} request
   * @returns {Promise<SaveResult>}
   */
  async function saveNow({ revision, score, apply = false }) {
    const target = file();
    const dir = path.dirname(target);
    const checked = await checkScoreIn(score, dir);
    if (!checked.ok) return { ok: false, code: 'INVALID_SCORE', problems: checked.problems };
    try {
      await refuseSymlink(target);
      await refuseSymlink(backupPath(target));
    } catch (error) {
      if (/** @type {any} */ (error).code === 'SYMLINK_REFUSED') return { ok: false, code: 'SYMLINK_REFUSED', message: error.message };
      throw error;
    }
    const bytes = await currentBytes(target);
    if (bytes !== null && !Buffer.isBuffer(bytes))
      return { ok: false, code: 'STALE_REVISION', currentRevision: null, message: bytes.problem };
    const currentRevision = Buffer.isBuffer(bytes) ? revisionOf(bytes) : null;
    if (revision !== currentRevision) return { ok: false, code: 'STALE_REVISION', currentRevision };
    const live = underWay();
    if (live && !apply) return { ok: false, code: 'PLAYING' };
    const next = { score: checked.score, dir, path: show.source().path };
    if (live) {
      const problem = show.engine.applyLive(checked.score, { check: true });
      if (problem) return { ok: false, code: 'PLAYING', message: `cannot apply this edit while the show plays: ${problem}` };
    }
    const text = scoreText(/** @type {Record<string, unknown>} */ (score));
    await replaceFile(target, text, { backup: backupPath(target), mkdir: false });
    // The consoles hear of the save with the file's new revision (console-api.js): an editor
    // knows its own save's news from another console's edit.
    const saved = { ...next, revision: revisionOf(text) };
    // Live: the show may have moved on while the file was written; a refusal now leaves the
    // file saved and says so.
    const problem = live ? show.applyLive(saved) : (show.load(saved), null);
    log.info(
      `saved the score ${target}${live ? (problem ? ` (not applied: ${problem})` : ', applied while playing') : ' and reloaded it'}`,
    );
    return {
      ok: true,
      path: target,
      revision: saved.revision,
      applied: live ? 'live' : 'loaded',
      ...(problem ? { notApplied: problem } : {}),
    };
  }

  return {
    read,
    /**
     * Validate, check the revision and the transport, write atomically with a backup, reload.
     * @param {{ revision: string | null, score: unknown, apply?: boolean }} request
     * @returns {Promise<SaveResult>}
     */
    save: (request) => serial(() => saveNow(request)),
  };
}
