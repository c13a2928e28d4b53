// `tutti import` and the console's import: read a MusicXML (.musicxml, .xml, .mxl) or MIDI
// (.mid, .midi) file into a validated score with no cues (docs/how-to/import.md#bringing-a-piece-in).
// Every problem with the file is an ImportError with one sentence; limits keep a huge or hostile
// file from eating the machine.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { cleanText } from '#core/import/clean-text.js';
import { ImportError } from '#core/import/import-error.js';
import { scoreFromPiece } from '#core/import/score-from-piece.js';
import { formatProblems, validateScore } from '#core/score/validate.js';
import { readMidi } from './midi.js';
import { decodeText, readMxl } from './mxl.js';
import { readMusicXml } from './musicxml.js';

/** What an import accepts: file size, measures written, bars when played out. */
export const IMPORT_LIMITS = Object.freeze({ bytes: 32 * 1024 * 1024, measures: 5_000, bars: 10_000 });

/** File name endings an import reads. */
export const IMPORT_EXTENSIONS = ['.musicxml', '.xml', '.mxl', '.mid', '.midi'];

/**
 * @typedef {object} ImportResult
 * @property {Record<string, any>} score a score `validateScore` accepts, without cues
 * @property {'MusicXML' | 'compressed MusicXML' | 'MIDI'} kind
 * @property {import('#core/import/score-from-piece.js').ImportWarning[]} warnings
 * @property {import('#core/import/time-map.js').TimeMap} timeMap
 * @property {number} written measures written in the file
 */

/**
 * Import a notation file. `pickupBeats` (MIDI only): the pickup's length in beats of the first
 * time signature, 0 for none, when the file cannot show it (docs/how-to/import.md#bringing-a-piece-in).
 * @param {string} file
 * @param {{ limits?: typeof IMPORT_LIMITS, pickupBeats?: number }} [options]
 * @returns {Promise<ImportResult>}
 * @throws {ImportError} for anything wrong with the file
 */
export async function importNotationFile(file, { limits = IMPORT_LIMITS, pickupBeats } = {}) {
  const what = path.basename(file);
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    throw new ImportError(
      `cannot read ${file}: ${/** @type {any} */ (error).code === 'ENOENT' ? 'no such file' : /** @type {any} */ (error).message}`,
    );
  }
  if (!info.isFile()) throw new ImportError(`${file} is not a file`);
  if (info.size > limits.bytes)
    throw new ImportError(
      `${what} is ${(info.size / 1024 / 1024).toFixed(1)} MB; Tutti imports notation files up to ${limits.bytes / 1024 / 1024} MB`,
    );
  if (info.size === 0) throw new ImportError(`${what} is empty`);
  const bytes = new Uint8Array(await readFile(file));
  return importNotationBytes(bytes, what, { limits, pickupBeats });
}

/**
 * Import a notation file's bytes; `name` (the file name) decides MusicXML or MIDI by its
 * ending, and the bytes' signature overrides it (a zip is .mxl, "MThd" is MIDI).
 * @param {Uint8Array} bytes
 * @param {string} name
 * @param {{ limits?: typeof IMPORT_LIMITS, pickupBeats?: number }} [options]
 * @returns {ImportResult}
 */
export function importNotationBytes(bytes, name, { limits = IMPORT_LIMITS, pickupBeats } = {}) {
  if (bytes.length > limits.bytes) throw new ImportError(`${name} is larger than ${limits.bytes / 1024 / 1024} MB`);
  const ext = path.extname(name).toLowerCase();
  const signature = String.fromCharCode(...bytes.subarray(0, 4));
  /** @type {import('#core/import/score-from-piece.js').ImportWarning[]} */
  const warnings = [];
  // Warnings quote the file (a measure's number, a direction's words): no control character of it
  // reaches the terminal or the console (issue 40, item 12).
  const warn = (measure, message) => warnings.push({ measure: cleanText(measure), message: cleanText(message) });
  const options = { maxMeasures: limits.measures, warn, what: name };
  let piece;
  /** @type {ImportResult['kind']} */
  let kind;
  if (signature === 'MThd' || ((ext === '.mid' || ext === '.midi') && signature !== 'PK\x03\x04')) {
    kind = 'MIDI';
    piece = readMidi(bytes, { ...options, pickupBeats });
  } else if (pickupBeats !== undefined && (signature === 'PK\x03\x04' || IMPORT_EXTENSIONS.slice(0, 3).includes(ext))) {
    throw new ImportError(`${name} is MusicXML, which marks its own pickup; a pickup is given for MIDI files only`);
  } else if (signature === 'PK\x03\x04' || ext === '.mxl') {
    kind = 'compressed MusicXML';
    // Unpacked, the score is held to the same size as an uncompressed file.
    piece = readMusicXml(readMxl(bytes, { maxBytes: limits.bytes, what: name }).text, options);
  } else if (ext === '.musicxml' || ext === '.xml') {
    kind = 'MusicXML';
    piece = readMusicXml(decodeText(bytes), options);
  } else {
    throw new ImportError(`${name}: Tutti imports MusicXML (${IMPORT_EXTENSIONS.slice(0, 3).join(', ')}) and MIDI (.mid, .midi) files`);
  }
  const base = path.basename(name, path.extname(name)).replace(/[_]+/g, ' ');
  const { score, timeMap } = scoreFromPiece(piece, { name: base, maxBars: limits.bars, warnings });
  const checked = validateScore(score);
  if (!checked.ok) throw new ImportError(`${name} could not become a valid score:\n${formatProblems(checked.problems)}`);
  return { score, kind, warnings, timeMap, written: piece.measures.length };
}
