// `npm run loadtest:report` with no file: the newest result in artillery/results/ (what
// `npm run loadtest` just wrote), skipping Artillery's temporary part files.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} dir the results folder
 * @returns {string | null} the most recently written result file, or null when there is none
 */
export function newestResult(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  let best = null;
  for (const name of names) {
    if (!name.endsWith('.json') || name.endsWith('.part.json')) continue;
    const file = join(dir, name);
    const mtime = statSync(file).mtimeMs;
    if (!best || mtime > best.mtime) best = { file, mtime };
  }
  return best?.file ?? null;
}
