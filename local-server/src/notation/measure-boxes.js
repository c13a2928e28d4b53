// Where each measure is on an engraved page (docs/reference/notation.md#the-bar-map). Verovio's SVG
// draws every measure as <g class="measure"> holding one <g class="staff"> per staff, and each
// staff starts with its staff lines as horizontal paths "M x1 y L x2 y". The box of a measure is
// the extent of its staff lines: exactly the part of the system that measure occupies. The
// coordinates are in the inner "definition-scale" SVG's units, offset by the page margin, so they
// are converted to the outer SVG's user units (its viewBox), which the tablet draws in.

/**
 * @typedef {{ n: string | null, x: number, y: number, w: number, h: number }} MeasureBox
 */

const MEASURE = /<g\b[^>]*\bclass="measure\b[^"]*"[^>]*>/g;
const STAFF_OR_MEASURE = /<g\b[^>]*\bclass="(measure|staff)\b[^"]*"[^>]*>/g;
const LINE = /\s*<path d="M(-?[\d.]+) (-?[\d.]+) L(-?[\d.]+) (-?[\d.]+)"[^>]*\/>/y;

/**
 * The page's size and the transform from inner units to the outer viewBox.
 * @param {string} svg
 * @returns {{ width: number, height: number, scale: number, dx: number, dy: number }}
 */
export function pageFrame(svg) {
  const outer = /<svg\b[^>]*\bviewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const inner = /<svg\b[^>]*class="definition-scale"[^>]*\bviewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const margin = /class="page-margin" transform="translate\((-?[\d.]+),\s*(-?[\d.]+)\)"/.exec(svg);
  if (!outer || !inner) throw new Error('the engraved page has no viewBox');
  const width = Number(outer[1]);
  return {
    width,
    height: Number(outer[2]),
    scale: width / Number(inner[1]),
    dx: margin ? Number(margin[1]) : 0,
    dy: margin ? Number(margin[2]) : 0,
  };
}

/**
 * The boxes of the measures on one page, in the order they are drawn (written order), in the
 * outer SVG's user units, rounded to 0.1. A measure without staff lines (none drawn) gets the box
 * of the measure before it, with no width, so it still has a place.
 * @param {string} svg a page from Verovio's renderToSVG
 * @returns {MeasureBox[]}
 */
export function measureBoxes(svg) {
  const frame = pageFrame(svg);
  const round = (v) => Math.round(v * 10) / 10;
  /** @type {Array<{ n: string | null, x1: number, x2: number, y1: number, y2: number }>} */
  const found = [];
  let current = null;
  STAFF_OR_MEASURE.lastIndex = 0;
  for (let m = STAFF_OR_MEASURE.exec(svg); m; m = STAFF_OR_MEASURE.exec(svg)) {
    if (m[1] === 'measure') {
      current = { n: /\bdata-n="([^"]*)"/.exec(m[0])?.[1] ?? null, x1: Infinity, x2: -Infinity, y1: Infinity, y2: -Infinity };
      found.push(current);
      continue;
    }
    if (!current) continue;
    LINE.lastIndex = STAFF_OR_MEASURE.lastIndex;
    for (let line = LINE.exec(svg); line; line = LINE.exec(svg)) {
      const [x1, y1, x2, y2] = line.slice(1, 5).map(Number);
      if (y1 !== y2) break;
      current.x1 = Math.min(current.x1, x1, x2);
      current.x2 = Math.max(current.x2, x1, x2);
      current.y1 = Math.min(current.y1, y1);
      current.y2 = Math.max(current.y2, y1);
    }
  }
  /** @type {MeasureBox[]} */
  const boxes = [];
  for (const b of found) {
    const previous = boxes[boxes.length - 1];
    if (b.x1 === Infinity) {
      boxes.push(previous ? { ...previous, n: b.n, x: previous.x + previous.w, w: 0 } : { n: b.n, x: 0, y: 0, w: 0, h: 0 });
      continue;
    }
    const x = (b.x1 + frame.dx) * frame.scale;
    const y = (b.y1 + frame.dy) * frame.scale;
    boxes.push({ n: b.n, x: round(x), y: round(y), w: round((b.x2 - b.x1) * frame.scale), h: round((b.y2 - b.y1) * frame.scale) });
  }
  return boxes;
}

/**
 * How many measures a page draws.
 * @param {string} svg
 * @returns {number}
 */
export function countMeasures(svg) {
  return svg.match(MEASURE)?.length ?? 0;
}
