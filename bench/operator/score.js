// The operator bench's score (docs/results.md#how-fast-how-small): the load-test score
// (scores/union-rose-load.score.json: a view change every other beat, audio cues) with one
// prompt added, so a seek to the prompt's bar opens a vote the way a seek opens one in a show.
// Written to a temporary folder with a copy of the load score's media, so its assets resolve.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOAD_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));
const LOAD_MEDIA = fileURLToPath(new URL('../../scores/media', import.meta.url));

/** Where the bench's operator jumps: a seek target and the prompt's bar (the score has 128 bars). */
export const SEEK_BAR = 40;
export const PROMPT_BAR = 100;
export const PROMPT_ID = 'operator-bench';

/**
 * Write the score and return its path.
 * @param {string} prefix temporary folder name prefix
 * @returns {string}
 */
export function writeOperatorScore(prefix = 'tutti-bench-operator-') {
  const score = JSON.parse(readFileSync(LOAD_SCORE, 'utf8'));
  score.id = 'operator-bench';
  score.prompts = [
    {
      id: PROMPT_ID,
      at: { bar: PROMPT_BAR },
      beats: 16,
      question: 'Which way?',
      options: [
        { id: 'left', label: 'Left' },
        { id: 'right', label: 'Right' },
      ],
    },
  ];
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // A copy (about 2 MB): a score's media must really be inside its folder (links are refused).
  cpSync(join(LOAD_MEDIA, 'union-rose'), join(dir, 'media', 'union-rose'), { recursive: true });
  const file = join(dir, 'operator.score.json');
  writeFileSync(file, JSON.stringify(score));
  return file;
}

/**
 * Delete a score written by writeOperatorScore, with its folder and media copy.
 * @param {string} file
 */
export function removeOperatorScore(file) {
  rmSync(dirname(file), { recursive: true, force: true });
}
