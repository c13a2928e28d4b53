// The bar map (docs/reference/notation.md#the-bar-map): for every performance-order bar of the
// score, the printed measure it plays, the page it is on and its box there. The order is the one
// `tutti import` counted (performance-order.js on the same file), and it is checked against the
// score: a notation edited since the import (other bars, other printed numbers) is an error that
// says so, never a map that puts the cursor on the wrong bar.

import { printedBarAt } from '#core/score/printed-bars.js';

/**
 * @typedef {{ bar: number, printed: number, page: number, x: number, y: number, w: number, h: number }} MappedBar
 * @typedef {{ pages: number, width: number, height: number, bars: MappedBar[] }} BarMap
 */

/**
 * Build the map, or the sentence saying why the notation does not fit the score.
 * @param {{ bars: number, printedBars?: ReadonlyArray<{ bar: number, number: number, pass?: number }> }} score
 * @param {{ order: ReadonlyArray<[number, number]>, printed: ReadonlyArray<number> }} source the notation read in performance order
 * @param {{ pages: number, width: number, height: number, boxes: ReadonlyArray<{ page: number, x: number, y: number, w: number, h: number }> }} engraving
 * @param {string} file the notation's file name, for the message
 * @returns {{ ok: true, map: BarMap } | { ok: false, message: string }}
 */
export function buildBarMap(score, source, engraving, file) {
  const mismatch = notationMismatch(score, source, file);
  if (mismatch) return { ok: false, message: mismatch };
  const bars = source.order.map(([index], i) => {
    const box = engraving.boxes[index];
    return { bar: i + 1, printed: source.printed[index], page: box.page, x: box.x, y: box.y, w: box.w, h: box.h };
  });
  return { ok: true, map: { pages: engraving.pages, width: engraving.width, height: engraving.height, bars } };
}

/**
 * Why the notation, played out, does not fit the score (another number of bars, another printed
 * bar or pass anywhere), or undefined when it fits.
 * @param {{ bars: number, printedBars?: ReadonlyArray<{ bar: number, number: number, pass?: number }> }} score
 * @param {{ order: ReadonlyArray<[number, number]>, printed: ReadonlyArray<number> }} source
 * @param {string} file
 * @returns {string | undefined}
 */
export function notationMismatch(score, source, file) {
  const advice = `${file} was changed since the score was made from it; import it again (tutti import ${file} --merge SCORE)`;
  if (source.order.length !== score.bars)
    return `the notation plays ${source.order.length} bars and the score has ${score.bars}: ${advice}`;
  for (let i = 0; i < source.order.length; i += 1) {
    const [index, pass] = source.order[i];
    const printed = source.printed[index];
    // A score without printed numbers counts its own bars: then the notation must too.
    const expected = printedBarAt(score.printedBars, i + 1, score.bars) ?? { number: i + 1, pass: 1 };
    if (expected.number !== printed || expected.pass !== pass)
      return `bar ${i + 1} is printed bar ${expected.number}${expected.pass > 1 ? ` (pass ${expected.pass})` : ''} in the score but ${printed}${pass > 1 ? ` (pass ${pass})` : ''} in the notation: ${advice}`;
  }
  return undefined;
}
