// The page shapes the venue engraves (docs/reference/notation.md#layouts). Verovio lays music
// out on a page of `pageWidth` × `pageHeight` tenths of a millimetre with a staff 7.2 mm high
// (its default unit); the page's width decides how big the staff is on the screen. These widths
// give a staff about 40 CSS px high on a 1180 × 820 or 820 × 1180 tablet (like a printed part
// on a stand, read at arm's length) and about 28 px on a 390 px wide phone. `scale` only sets
// the SVG's user units: about one per CSS pixel of the screen the page is made for.

/**
 * @typedef {{ name: string, pageWidth: number, pageHeight: number, scale: number, screen: string }} Layout
 */

/** @type {Readonly<Record<string, Layout>>} */
export const LAYOUTS = Object.freeze({
  'tablet-landscape': { name: 'tablet-landscape', pageWidth: 2100, pageHeight: 1460, scale: 56, screen: '1180 × 820' },
  'tablet-portrait': { name: 'tablet-portrait', pageWidth: 1500, pageHeight: 2160, scale: 55, screen: '820 × 1180' },
  phone: { name: 'phone', pageWidth: 1000, pageHeight: 1850, scale: 39, screen: '390 × 720' },
});

/** The layout a request without `?layout=` gets. */
export const DEFAULT_LAYOUT = 'tablet-landscape';

/**
 * The layout a query names (default when absent), or undefined when it names none.
 * @param {unknown} value
 * @returns {Layout | undefined}
 */
export function layoutNamed(value) {
  if (value === undefined) return LAYOUTS[DEFAULT_LAYOUT];
  return typeof value === 'string' && Object.hasOwn(LAYOUTS, value) ? LAYOUTS[value] : undefined;
}

/**
 * Verovio's options for a layout: pages of the same size (the tablet shows them one by one),
 * no header or footer (the part page shows the title), measure numbers as data-n on each
 * measure group (measure-boxes.js reads them), ids that do not change between runs and no
 * embedded text font.
 * @param {Layout} layout
 * @returns {Record<string, unknown>}
 */
export function verovioOptions(layout) {
  return {
    pageWidth: layout.pageWidth,
    pageHeight: layout.pageHeight,
    scale: layout.scale,
    pageMarginLeft: 60,
    pageMarginRight: 60,
    pageMarginTop: 60,
    pageMarginBottom: 60,
    breaks: 'auto',
    adjustPageHeight: false,
    header: 'none',
    footer: 'none',
    svgViewBox: true,
    svgFormatRaw: true, // no indentation: a fifth fewer bytes
    svgAdditionalAttribute: ['measure@n'],
    // Not in every page: served once (music-font.js, docs/reference/notation.md#the-music-font).
    smuflTextFont: 'none',
    xmlIdSeed: 1,
  };
}
