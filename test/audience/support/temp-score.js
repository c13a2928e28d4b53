// A score written to a temporary folder for a browser suite (the show server loads score files).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {{ id: string }} score
 * @returns {Promise<{ file: string, remove: () => Promise<void> }>}
 */
export async function writeTempScore(score) {
  const dir = await mkdtemp(join(tmpdir(), 'tutti-score-'));
  const file = join(dir, `${score.id}.score.json`);
  await writeFile(file, JSON.stringify(score));
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}
