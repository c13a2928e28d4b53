// One import from a notation file to a score file, shared by `tutti import` (import-command.js)
// and the console (console/console-import.js): import, optionally merge into an existing score,
// and write — never over an existing file unless `force`.

import { existsSync } from 'node:fs';
import { SymlinkRefusedError, createFile, refuseSymlink, replaceFile } from '../files/safe-write.js';
import { placeNotation } from './place-notation.js';
import { scoreText } from '../score/score-text.js';
import path from 'node:path';
import { ImportError } from '#core/import/import-error.js';
import { mergeTimeMap } from '#core/import/merge.js';
import { formatProblems, validateScore } from '#core/score/validate.js';
import { loadScoreFile } from '../score/score-file.js';
import { importNotationFile } from './import-file.js';
import { describeImport } from './import-summary.js';

/**
 * Where the score goes by default: next to the input, "piece.musicxml" → "piece.score.json".
 * @param {string} file
 * @returns {string}
 */
export function defaultScorePath(file) {
  return path.join(path.dirname(file), `${path.basename(file, path.extname(file))}.score.json`);
}

/**
 * Import `file` and (unless `dryRun`) write the score to `out` (default: defaultScorePath).
 * @param {{ file: string, out?: string, force?: boolean, merge?: string, dryRun?: boolean, pickupBeats?: number }} request
 * @returns {Promise<{ target: string, exists: boolean, lines: string[], score: Record<string, any>, result: import('./import-file.js').ImportResult, lost: import('#core/import/merge.js').MergeLoss[] }>}
 * @throws {ImportError} for a bad file, a bad score to merge into, or an existing target without `force`
 */
export async function importToFile({ file, out, force = false, merge, dryRun = false, pickupBeats }) {
  const target = out ?? defaultScorePath(file);
  // A link at the target (even dangling) is refused before any work (files/safe-write.js).
  await refuseSymlink(target).catch((error) => {
    throw error instanceof SymlinkRefusedError ? new ImportError(`${error.message}; nothing was written`) : error;
  });
  const exists = existsSync(target);
  if (exists && !force && !dryRun) throw new ImportError(`${target} exists; pass --force to replace it, or --out another path`);
  const result = await importNotationFile(file, { pickupBeats });
  // MusicXML is also what the venue engraves: it goes beside the score (docs/reference/notation.md#the-notation-field).
  const notation = result.kind === 'MIDI' ? undefined : await placeNotation(file, target, { force, dryRun });
  if (notation) result.score.notation = notation;
  let score = result.score;
  let lost = [];
  const lines = describeImport(result, file);
  if (merge) {
    const existing = await loadScoreFile(merge);
    if (!existing.ok)
      throw new ImportError(`${merge} is not a valid score, so nothing can be merged into it:\n${formatProblems(existing.problems)}`);
    const merged = mergeTimeMap(/** @type {any} */ (existing.score), score);
    const checked = validateScore(merged.score);
    if (!checked.ok) throw new ImportError(`merging ${merge} gives a score with problems:\n${formatProblems(checked.problems)}`);
    score = merged.score;
    lost = merged.lost;
    lines.push(`Merged ${merge}: ${merged.kept} cue(s) kept at their printed bars${lost.length ? `, ${lost.length} left out:` : ''}`);
    for (const loss of lost) lines.push(`  ! ${loss.what}: ${loss.message}`);
  }
  if (!dryRun) {
    try {
      // The editor's written form, so a save with no edit writes the same bytes (docs/reference/score-editing-api.md#the-written-form).
      const text = scoreText(score);
      // Replaced through a temp file and a rename only with force; else created, never clobbering.
      await (force ? replaceFile(target, text, { mkdir: false }) : createFile(target, text, { mkdir: false }));
    } catch (error) {
      const code = /** @type {any} */ (error).code;
      if (error instanceof SymlinkRefusedError) throw new ImportError(`${error.message}; nothing was written`);
      throw new ImportError(
        `cannot write ${target}: ${code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'not allowed to write there' : code === 'ENOENT' ? 'no such folder' : /** @type {any} */ (error).message}; choose another place with --out`,
      );
    }
  }
  return { target, exists, lines, score, result, lost };
}
