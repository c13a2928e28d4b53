// One engraving with Verovio (docs/reference/notation.md#what-is-engraved): one part (or the full
// score) in one layout, every page as SVG with the credit, and the box of every written measure.
// Runs on the engraver's worker thread (engrave-worker.js), never on the show's event loop.

import { ImportError } from '#core/import/import-error.js';
import { withCredit } from './credit.js';
import { verovioOptions } from './layouts.js';
import { measureBoxes, pageFrame } from './measure-boxes.js';
import { linkMusicFont } from './music-font.js';
import { partText } from './notation-source.js';
import { slimPage } from './page-slim.js';

/** A notation that needs more pages than this is refused (a part is tens, a score hundreds). */
export const MAX_PAGES = 2000;

/**
 * @typedef {{ page: number, x: number, y: number, w: number, h: number }} PlacedBox
 * @typedef {{ pages: string[], width: number, height: number, boxes: PlacedBox[] }} Engraved
 */

/**
 * Engrave one part in one layout.
 * @param {any} toolkit a VerovioToolkit
 * @param {import('./notation-source.js').NotationSource} source
 * @param {string} xmlId a <part id>, or "all"
 * @param {import('./layouts.js').Layout} layout
 * @param {import('./music-font.js').MusicFont | null} [font] the font a page's text names (music-font.js)
 * @returns {Engraved}
 * @throws {ImportError} with one sentence when Verovio cannot engrave it
 */
export function engravePages(toolkit, source, xmlId, layout, font = null) {
  toolkit.setOptions(verovioOptions(layout));
  if (!toolkit.loadData(partText(source, xmlId))) throw new ImportError('Verovio could not read this MusicXML');
  const count = toolkit.getPageCount();
  if (count < 1) throw new ImportError('Verovio drew no page from this MusicXML');
  if (count > MAX_PAGES) throw new ImportError(`it would take ${count} pages, more than the ${MAX_PAGES} Tutti engraves`);
  /** @type {string[]} */
  const pages = [];
  /** @type {PlacedBox[]} */
  const boxes = [];
  let frame;
  for (let page = 1; page <= count; page += 1) {
    const svg = toolkit.renderToSVG(page);
    frame ??= pageFrame(svg);
    for (const { x, y, w, h } of measureBoxes(svg)) boxes.push({ page, x, y, w, h });
    pages.push(linkMusicFont(withCredit(slimPage(svg), frame), font));
  }
  if (boxes.length !== source.written)
    throw new ImportError(
      `Verovio drew ${boxes.length} measures for the ${source.written} written ones (multi-bar rests or measures it split), so bars cannot be placed on its pages`,
    );
  return { pages, width: /** @type {any} */ (frame).width, height: /** @type {any} */ (frame).height, boxes };
}
