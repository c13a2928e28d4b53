// Rules for `graphic`: drawn (not engraved) notation, scrolled past a playhead on the part pages
// (docs/reference/graphic-scores.md#the-graphic-field). Each entry is a strip of image assets laid
// side by side for one part (or "all"), and marks saying which x on the strip each position sits at.

import { describeValue, quote } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import { checkArray, checkEntry, checkInteger, checkNumber, has, own } from './validate-primitives.js';
import { checkReference } from './validate-media.js';
import { compare, checkPosition, positionText } from './validate-timing.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').GraphicScore} GraphicScore
 */

/** The part id a graphic for every player uses (a conductor's or a single shared strip). */
export const GRAPHIC_ALL = 'all';

const EXAMPLE =
  '{ "part": "all", "images": [{ "asset": "strip", "width": 3000, "height": 600 }], "marks": [{ "at": { "bar": 1 }, "x": 0 }] }';

/**
 * The score's graphic scores. A part has at most one; "all" is the strip for players whose part
 * has none. Marks must start at bar 1 beat 1 and move right as the piece goes on.
 * @param {CheckContext} ctx
 * @param {any} value the score's `graphic`
 * @param {ScoreEnv} env
 * @returns {GraphicScore[]}
 */
export function checkGraphic(ctx, value, env) {
  if (!checkArray(ctx, value, 'graphic', SCORE_LIMITS.graphicScores, `graphic scores such as ${EXAMPLE}`, false)) return [];
  const out = [];
  const seen = new Map();
  value.forEach((entry, i) => {
    const path = `graphic[${i}]`;
    if (!checkEntry(ctx, entry, path, `a graphic score such as ${EXAMPLE}`, ['part', 'images', 'marks', 'end'])) return;
    const part = checkPart(ctx, own(entry, 'part'), `${path}.part`, env, seen, path);
    const images = checkImages(ctx, own(entry, 'images'), `${path}.images`, env);
    const width = images.reduce((sum, image) => sum + image.width, 0);
    const marks = checkMarks(ctx, own(entry, 'marks'), `${path}.marks`, env, width);
    let end = width;
    if (has(entry, 'end')) {
      const last = marks.length > 0 ? marks[marks.length - 1].x : 0;
      if (checkNumber(ctx, own(entry, 'end'), `${path}.end`, 0, Number.MAX_SAFE_INTEGER, 'the x where the piece ends on the strip')) {
        end = own(entry, 'end');
        if (images.length > 0 && end > width)
          ctx.add(`${path}.end`, `${end} is past the strip's right edge (${width}, its images' widths added up)`);
        else if (end <= last)
          ctx.add(`${path}.end`, `${end} must be right of the last mark (x ${last}): the piece ends after its last mark`);
      }
    }
    if (part !== undefined) out.push({ part, images, marks, end });
  });
  return out;
}

// "all" or a declared part, each at most once.
function checkPart(ctx, value, path, env, seen, entryPath) {
  if (value === undefined) {
    ctx.add(path, `missing: the part id this graphic score is for, or "${GRAPHIC_ALL}"`);
    return undefined;
  }
  if (value !== GRAPHIC_ALL && !checkReference(ctx, value, path, env.parts, undefined, 'part')) return undefined;
  if (seen.has(value)) {
    ctx.add(path, `${quote(value)} already has a graphic score (${seen.get(value)}); give each part one strip`);
    return undefined;
  }
  seen.set(value, entryPath);
  return value;
}

// Image assets laid left to right; one height throughout so x means one thing along the strip.
function checkImages(ctx, value, path, env) {
  const what = 'the images of the strip, left to right, such as { "asset": "strip", "width": 3000, "height": 600 }';
  if (!checkArray(ctx, value, path, SCORE_LIMITS.graphicImages, what, true)) return [];
  const out = [];
  value.forEach((image, i) => {
    const at = `${path}[${i}]`;
    if (!checkEntry(ctx, image, at, 'an image such as { "asset": "strip", "width": 3000, "height": 600 }', ['asset', 'width', 'height']))
      return;
    const asset = own(image, 'asset');
    if (asset === undefined) ctx.add(`${at}.asset`, 'missing: the id of an image asset');
    const assetOk = asset !== undefined && checkReference(ctx, asset, `${at}.asset`, env.assets, 'image', 'image asset');
    const sizeOk = ['width', 'height'].map((key) => {
      const size = own(image, key);
      if (size === undefined) {
        ctx.add(`${at}.${key}`, `missing: the image's ${key} in pixels, as the file has it`);
        return false;
      }
      return checkInteger(ctx, size, `${at}.${key}`, 1, SCORE_LIMITS.graphicPixels, `the image's ${key} in pixels`);
    });
    if (assetOk && sizeOk.every(Boolean)) out.push({ asset, width: own(image, 'width'), height: own(image, 'height') });
  });
  const first = out[0];
  out.forEach((image, i) => {
    if (image.height !== first.height) {
      ctx.add(
        `${path}[${i}].height`,
        `${image.height} differs from the first image's height (${first.height}); scale the images of one strip to one height`,
      );
    }
  });
  return out;
}

// Positions in performance order with their x on the strip, both strictly increasing.
function checkMarks(ctx, value, path, env, width) {
  const what = 'where positions sit on the strip, such as { "at": { "bar": 1 }, "x": 0 }';
  if (!checkArray(ctx, value, path, SCORE_LIMITS.graphicMarks, what, true)) return [];
  const out = [];
  value.forEach((mark, i) => {
    const at = `${path}[${i}]`;
    if (!checkEntry(ctx, mark, at, 'a mark such as { "at": { "bar": 9 }, "x": 1200 }', ['at', 'x'])) return;
    const pos = own(mark, 'at') === undefined ? undefined : checkPosition(ctx, own(mark, 'at'), `${at}.at`, env);
    if (own(mark, 'at') === undefined) ctx.add(`${at}.at`, 'missing: the position this mark is at, e.g. { "bar": 9 }');
    const x = own(mark, 'x');
    let xOk = false;
    if (x === undefined) ctx.add(`${at}.x`, 'missing: the x on the strip (pixels from its left edge) where this position is');
    else xOk = checkNumber(ctx, x, `${at}.x`, 0, Number.MAX_SAFE_INTEGER, 'the x on the strip in pixels');
    if (xOk && width > 0 && x >= width) ctx.add(`${at}.x`, `${x} is past the strip's right edge (${width}, its images' widths added up)`);
    if (!pos || !xOk) return;
    // Compared with the last good mark, so one misplaced mark is reported once, not again by the next.
    const prev = out[out.length - 1];
    if (!prev && (pos.bar !== 1 || pos.beat !== 1)) {
      ctx.add(`${at}.at`, `the first mark must be at bar 1, beat 1 (it is at ${positionText(pos)}): the strip needs a start`);
    } else if (prev && compare(prev.at, pos) >= 0) {
      ctx.add(
        `${at}.at`,
        `${positionText(pos)} is not after the mark before it (${positionText(prev.at)}); list marks in performance order`,
      );
    } else if (prev && x <= prev.x) {
      ctx.add(`${at}.x`, `${describeValue(x)} is not right of the mark before it (x ${prev.x}); the strip scrolls one way`);
    } else out.push({ at: pos, x });
  });
  return out;
}
