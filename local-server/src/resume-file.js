// --state-file: the show's resume point on disk, so a server killed mid-show (power cut,
// crash, SIGKILL) comes back where the show is now. Written atomically (temp file + rename)
// only when the point changes: transport, seek, tempo or score — not on every beat.

import { readFile, writeFile, rename, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * @param {string} file
 * @returns {Promise<{ scorePath: string, point: any } | null>} null when absent or unreadable
 */
export async function readResumeFile(file) {
  try {
    const value = JSON.parse(await readFile(file, 'utf8'));
    if (typeof value?.scorePath !== 'string' || typeof value?.point !== 'object') return null;
    return value;
  } catch {
    return null;
  }
}

/**
 * Keep `file` in step with the show's resume point.
 * @param {{ file: string, show: any, log: import('./log.js').Log }} options
 */
export function persistResumePoint({ file, show, log }) {
  let last = '';
  let writing = Promise.resolve();
  let warned = false;
  const save = () => {
    const json = JSON.stringify({ scorePath: show.source().path, point: show.engine.resumePoint(), savedAt: Date.now() });
    const key = json.replace(/"savedAt":\d+/, '');
    if (key === last) return;
    last = key;
    writing = writing.then(async () => {
      try {
        await mkdir(path.dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, json);
        await rename(tmp, file);
      } catch (err) {
        if (!warned) log.warn(`cannot save the show position to ${file}: ${err.message}`);
        warned = true;
      }
    });
  };
  show.onEnvelope(save);
  save();
  return { flush: () => writing };
}
