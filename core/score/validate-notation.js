// The score's `notation`: the MusicXML (.musicxml, .xml) or compressed .mxl file beside the score
// that it was made from, which the venue server engraves for the part pages
// (docs/reference/notation.md#the-notation-field). The path rules are the assets' (a file inside
// the score's folder); that the file exists is checked when the score is loaded (score-file.js).

import { describeValue, quote } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import { srcProblem } from './validate-media.js';
import { chars } from './validate-primitives.js';

/** File name endings a notation file may have. */
export const NOTATION_EXTENSIONS = ['.musicxml', '.xml', '.mxl'];

/**
 * Check `notation`: a safe relative path ending in .musicxml, .xml or .mxl.
 * @param {import('./validate-primitives.js').CheckContext} ctx
 * @param {unknown} value
 * @returns {string | undefined} the path when it is usable
 */
export function checkNotation(ctx, value) {
  if (typeof value !== 'string') {
    ctx.add('notation', `expected the MusicXML file the score was made from, e.g. "piece.musicxml", got ${describeValue(value)}`);
    return undefined;
  }
  if (chars(value) > SCORE_LIMITS.srcChars) {
    ctx.add('notation', `the path is longer than ${SCORE_LIMITS.srcChars} characters`);
    return undefined;
  }
  const problem =
    srcProblem(value, undefined) ??
    (NOTATION_EXTENSIONS.some((ext) => value.toLowerCase().endsWith(ext))
      ? undefined
      : `a notation file is MusicXML and ends in ${NOTATION_EXTENSIONS.join(', ')}`);
  if (problem) {
    ctx.add('notation', `${quote(value)} is not a usable notation file: ${problem}`);
    return undefined;
  }
  return value;
}
