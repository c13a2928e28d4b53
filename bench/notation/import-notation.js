// bench:notation's scores: a corpus file imported as `tutti import` does, into its own folder, so
// the score names it as its notation and the server engraves it.

import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { importToFile } from '../../local-server/index.js';

/**
 * Copy `file` into `dir` (unless `inPlace`) and import it beside itself.
 * @param {string} file
 * @param {string} dir
 * @param {{ inPlace?: boolean }} [options]
 * @returns {Promise<{ scorePath: string, score: Record<string, any> }>}
 */
export async function importNotation(file, dir, { inPlace = false } = {}) {
  await mkdir(dir, { recursive: true });
  const input = inPlace ? file : path.join(dir, path.basename(file));
  if (!inPlace) await copyFile(file, input);
  const { target, score } = await importToFile({ file: input, force: true });
  return { scorePath: target, score };
}
