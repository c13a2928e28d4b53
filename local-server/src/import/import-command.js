// `tutti import FILE [--out PATH] [--force] [--merge EXISTING.score.json] [--pickup BEATS]` (README.md,
// "Bringing a piece in"): read the notation file, print what was found and every warning with
// its measure, write the score. One clear message and exit 1 for anything wrong; never a trace.

import { statSync } from 'node:fs';
import { ImportError } from '#core/import/import-error.js';
import { IMPORT_LIMITS } from './import-file.js';
import { importToFile } from './import-to-file.js';

export const IMPORT_USAGE = `Usage: tutti import FILE [--out PATH] [--force] [--merge EXISTING.score.json] [--pickup BEATS]

Reads a MusicXML file (.musicxml, .xml, compressed .mxl) or a Standard MIDI File (.mid, .midi,
format 0 or 1) and writes a score (*.score.json) that "tutti validate" accepts: bars in
performance order (repeats, 1st/2nd endings, D.C./D.S./Coda/Fine played out), the printed bar
number and pass of every bar, time signatures, tempo marks (accel./rit. as gradual changes),
rehearsal marks as sections, the parts with OSC prefixes, title and composer. No cues: you add
them. Prints what it found and a warning, with its measure, for everything it could not map.
A MusicXML file is also copied beside the score and named in its "notation", which the venue
server engraves for the part pages (docs/reference/notation.md).

Options:
  --out PATH      where to write the score (default: next to FILE, FILE's name + .score.json)
  --force         replace PATH if it exists (without it, an existing file is never overwritten),
                  and a different notation file of the same name beside it
  --merge FILE    take the cues, prompts, reactions, parts, media and view of an existing score
                  and put them on the new time map at the same printed bars (a revised edition);
                  prints every cue whose bar no longer exists. Writes to --out (or the default),
                  so use --out EXISTING --force to update the existing score in place.
  --pickup BEATS  MIDI only: the piece starts with a pickup (upbeat) this many beats long,
                  counted in the first time signature's beats (0.5 = an eighth in 4/4; in 6/8,
                  1 = an eighth); 0 = no pickup. LilyPond and abc2midi write a pickup as nothing
                  but notes: the import finds it where the time signature changes later, and
                  needs this where it never changes.
  --help          this text

Limits: files up to ${IMPORT_LIMITS.bytes / 1024 / 1024} MB, ${IMPORT_LIMITS.measures.toLocaleString('en')} written measures, ${IMPORT_LIMITS.bars.toLocaleString('en')} bars played out.
See README.md ("Bringing a piece in") and scores/README.md ("Importing a piece").`;

/**
 * Parse the arguments of `tutti import`.
 * @param {string[]} args
 * @returns {{ file?: string, out?: string, merge?: string, pickupBeats?: number, force: boolean, help: boolean, error?: string }}
 */
export function parseImportArgs(args) {
  const result = { force: false, help: false, file: undefined, out: undefined, merge: undefined, pickupBeats: undefined, error: undefined };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') result.help = true;
    else if (arg === '--force') result.force = true;
    else if (arg === '--out' || arg === '--merge') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) return { ...result, error: `${arg} needs a file path` };
      result[arg.slice(2)] = value;
      i += 1;
    } else if (arg === '--pickup') {
      const value = args[i + 1];
      const beats = value === undefined || !/^\d+(\.\d+)?$/.test(value) ? NaN : Number(value);
      if (!(beats >= 0 && beats <= 32))
        return { ...result, error: `--pickup needs the pickup's length in beats, from 0 to 32 (got ${value ?? 'nothing'})` };
      result.pickupBeats = beats;
      i += 1;
    } else if (arg.startsWith('-')) return { ...result, error: `unknown option ${arg}` };
    else if (result.file) return { ...result, error: `give one file to import (got ${result.file} and ${arg})` };
    else result.file = arg;
  }
  return result;
}

/**
 * Run `tutti import`.
 * @param {string[]} args
 * @param {(s: string) => void} out
 * @param {(s: string) => void} err
 * @returns {Promise<number>} exit code
 */
export async function runImport(args, out, err) {
  const parsed = parseImportArgs(args);
  if (parsed.help) {
    out(IMPORT_USAGE);
    return 0;
  }
  if (parsed.error || !parsed.file) {
    err(
      `tutti import: ${parsed.error ?? 'give the file to import, e.g. tutti import piece.musicxml'}\nRun "tutti import --help" for the options.`,
    );
    return 2;
  }
  // A large file takes seconds to read: say so before the wait.
  const size = fileSize(parsed.file);
  if (size > 1024 * 1024 && size <= IMPORT_LIMITS.bytes) out(`Reading ${parsed.file} (${(size / 1024 / 1024).toFixed(1)} MB)…`);
  try {
    const { target, lines } = await importToFile({
      file: parsed.file,
      out: parsed.out,
      force: parsed.force,
      merge: parsed.merge,
      pickupBeats: parsed.pickupBeats,
    });
    for (const line of lines) out(line);
    const shown = /\s/.test(target) ? JSON.stringify(target) : target;
    out(
      `Wrote ${target}. Next: add cues, then check it with npx tutti validate ${shown} and play it with npx tutti serve --score ${shown}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      err(`tutti import: ${error.message}`);
      return 1;
    }
    err(`tutti import: could not import ${parsed.file}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0; // importToFile reports a missing file
  }
}
