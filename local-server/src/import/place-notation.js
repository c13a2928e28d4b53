// `tutti import` of a MusicXML file puts a copy of it beside the score it writes and names it in
// the score's "notation", so the venue server can engrave the very file the bars came from
// (docs/reference/notation.md#the-notation-field). Never replaces a different file of the same
// name unless forced.

import { existsSync } from 'node:fs';
import { copyFile, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ImportError } from '#core/import/import-error.js';

/**
 * Copy `file` into the folder of `target` (the score being written) under its own name, unless it
 * is already there; with `dryRun` nothing is copied. Returns the score's `notation` value.
 * @param {string} file the MusicXML / .mxl file imported
 * @param {string} target the score file to be written
 * @param {{ force: boolean, dryRun: boolean }} options
 * @returns {Promise<string>} the file name relative to the score
 * @throws {ImportError} when another file of that name is there (without `force`) or the copy fails
 */
export async function placeNotation(file, target, { force, dryRun }) {
  // Names the score validator would refuse (a "%" or "#") are replaced; the extension is kept.
  const name = [...path.basename(file)].map((c) => (/[?#%\\]/.test(c) || c.charCodeAt(0) < 0x20 || c === '\u007f' ? '_' : c)).join('');
  const beside = path.join(path.dirname(path.resolve(target)), name);
  // Without the folder the score cannot be written either; that write says so.
  if (dryRun || !existsSync(path.dirname(beside))) return name;
  if (await sameFile(file, beside)) return name;
  const existing = await readFile(beside).catch(() => null);
  if (existing && !force) {
    const source = await readFile(file);
    if (!existing.equals(source))
      throw new ImportError(`${beside} exists and is a different file; pass --force to replace it with ${file}, or --out another folder`);
    return name;
  }
  try {
    await copyFile(file, beside);
  } catch (error) {
    throw new ImportError(`cannot copy ${file} beside the score: ${/** @type {Error} */ (error).message}`);
  }
  return name;
}

async function sameFile(a, b) {
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}
