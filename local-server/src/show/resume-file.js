// The show's resume point on disk (docs/how-to/venue-server-unattended.md#crash-resume), so a server killed mid-show
// (power cut, crash, SIGKILL) comes back where the show is now. Written only when the point
// changes (transport, seek, tempo, score — not every beat), durably: temp file, fsync, rename,
// fsync of the folder. A clean stop deletes it, so the file existing at start means the last
// run did not end cleanly.

import * as fsPromises from 'node:fs/promises';
import { readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile, syncFolder } from '../files/safe-write.js';

/**
 * @typedef {{ scorePath: string, point: any, savedAt: number, record?: string, rehearsal?: boolean }} ResumeRecord
 * @typedef {{ status: 'absent' } | { status: 'ok', record: ResumeRecord } | { status: 'corrupt', reason: string, keptAs: string | null }} ResumeRead
 */

/** Why a parsed value is not a resume record, or null. The point's ranges are checked by the engine. */
function recordProblem(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  if (typeof value.scorePath !== 'string' || !path.isAbsolute(value.scorePath)) return 'scorePath is not an absolute path';
  if (!value.point || typeof value.point !== 'object' || Array.isArray(value.point)) return 'point is not an object';
  if (value.savedAt !== undefined && !Number.isFinite(value.savedAt)) return 'savedAt is not a number';
  return null;
}

/**
 * Read the resume file. A file that cannot be used is renamed to `FILE.corrupt` (kept for a
 * look, never silently overwritten) and reported, and the show starts from the top.
 * @param {string} file
 * @returns {Promise<ResumeRead>}
 */
export async function readResumeFile(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (/** @type {any} */ (err).code === 'ENOENT') return { status: 'absent' };
    return { status: 'corrupt', reason: `cannot read it: ${/** @type {Error} */ (err).message}`, keptAs: null };
  }
  let reason;
  try {
    reason = recordProblem(JSON.parse(text));
  } catch (err) {
    reason = `not JSON (${/** @type {Error} */ (err).message})`;
  }
  if (reason === null) return { status: 'ok', record: JSON.parse(text) };
  const keptAs = `${file}.corrupt`;
  try {
    await rename(file, keptAs);
  } catch {
    return { status: 'corrupt', reason, keptAs: null };
  }
  return { status: 'corrupt', reason, keptAs };
}

/**
 * Write `text` to `file` durably: temp file, fsync, rename, fsync of the folder; a `file` that
 * is a symbolic link is refused, never written through (docs/reference/score-editing-api.md#safe-writes).
 * @param {string} file
 * @param {string | Uint8Array} text
 * @param {import('../files/safe-write.js').WriteFs} [fs] the file system (tests record the calls)
 */
export async function writeFileDurably(file, text, fs = fsPromises) {
  await replaceFile(file, text, { mode: 0o600, fs });
}

/**
 * Keep `file` in step with the show's resume point.
 * @param {{ file: string, show: import('./show.js').Show, log: import('../logs/log.js').Log, record?: string | null }} options
 *   `record`: the performance record this show writes, so a crash-resumed server continues it
 * @returns {{ flush: () => Promise<void>, clear: () => Promise<void> }}
 */
export function persistResumePoint({ file, show, log, record = null }) {
  let last = '';
  let writing = Promise.resolve();
  let warned = false;
  let stopped = false;
  const queue = (job) => {
    writing = writing.then(job).catch((err) => {
      if (!warned) log.warn(`cannot save the show position to ${file}: ${err.message}`);
      warned = true;
    });
  };
  const save = () => {
    if (stopped) return;
    // Absolute, so the same file works whatever folder the next start runs in.
    const scorePath = path.resolve(show.source().path);
    // Rehearsal mode too (docs/how-to/rehearse.md#rehearsal-mode): a crash must not show the hall the run-through.
    const extra = { ...(record ? { record } : {}), ...(show.rehearsal() ? { rehearsal: true } : {}) };
    const json = JSON.stringify({ scorePath, point: show.engine.resumePoint(), savedAt: Date.now(), ...extra });
    const key = json.replace(/"savedAt":\d+/, '');
    if (key === last) return;
    last = key;
    queue(() => writeFileDurably(file, json));
  };
  show.events.on('envelope', save);
  save();
  return {
    flush: () => writing,
    /** A clean stop: nothing to resume next time. */
    clear() {
      stopped = true;
      queue(async () => {
        await unlink(file).catch((err) => {
          if (err.code !== 'ENOENT') throw err;
        });
        await syncFolder(path.dirname(file));
      });
      return writing;
    },
  };
}
