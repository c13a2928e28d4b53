// Verovio is LGPL-3.0-or-later: the pages it engraves say so where the musician sees them
// (docs/reference/notation.md#credits). Verovio writes its own <desc>; this adds a small line of
// visible text at the foot of every page.

/** The credit line on every page. */
export const VEROVIO_CREDIT = 'Engraved by Verovio (verovio.org, LGPL-3.0)';

/**
 * The page with the credit as small grey text in its bottom-right corner, inside the outer SVG.
 * @param {string} svg a page from Verovio
 * @param {{ width: number, height: number }} frame the outer viewBox's size
 * @returns {string}
 */
export function withCredit(svg, frame) {
  const size = Math.max(6, Math.round(frame.width / 110));
  const text =
    `<text class="tutti-credit" x="${frame.width - size}" y="${frame.height - size / 2}" font-size="${size}" ` +
    `font-family="sans-serif" text-anchor="end" fill="#777">${VEROVIO_CREDIT}</text>`;
  const end = svg.lastIndexOf('</svg>');
  return end < 0 ? svg : `${svg.slice(0, end)}${text}\n${svg.slice(end)}`;
}
