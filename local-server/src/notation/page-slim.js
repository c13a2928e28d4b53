// Fewer bytes per engraved page (docs/reference/notation.md#page-size). Verovio gives every
// element a random-looking id and a class; the tablet shows a page as an <img>, so neither is
// read there, and ids do not compress (a fifth of a dense page gzipped). Kept: the ids something
// in the page points at (glyphs: <use href="#E050-…">, the root the page's style is scoped to),
// the classes the page's own style selects, and the classes read elsewhere (measure, staff,
// notehead, the frame's). Groups left with no attribute draw nothing of their own and are unwrapped.
// Coordinates inside the page's drawing are in Verovio's units, about 0.06 px each on a tablet;
// they are written in units ten times coarser, rounded (off by under 0.3 px), which takes one
// digit off nearly every number. Runs on the engraver's worker, after the measure
// boxes are read.

/** Classes kept whatever the style says: measure-boxes.js reads measures and staves, the bar map's tests noteheads. */
const READ = new Set(['measure', 'staff', 'notehead', 'definition-scale', 'page-margin', 'tutti-credit']);

/**
 * The page with unreferenced ids, unstyled classes and bare groups removed; it draws the same.
 * @param {string} svg one page from Verovio
 * @returns {string}
 */
export function slimPage(svg) {
  const referenced = new Set([...svg.matchAll(/#([\w-]+)/g)].map((m) => m[1]));
  const styled = new Set(
    [...svg.matchAll(/<style\b[^>]*>([^<]*)<\/style>/g)].flatMap((m) => [...m[1].matchAll(/\.([A-Za-z][\w-]*)/g)].map((c) => c[1])),
  );
  const keep = (names) => names.split(/\s+/).some((n) => READ.has(n) || styled.has(n));
  const thin = svg
    .replace(/ id="([^"]*)"/g, (all, id) => (referenced.has(id) ? all : ''))
    .replace(/ class="([^"]*)"/g, (all, names) => (keep(names) ? all : ''));
  return coarser(unwrapBareGroups(thin));
}

const whole = (n) => String(Math.round(Number(n) / 10));
const tenth = (n) => String(Math.round(Number(n)) / 10);
const thousandth = (n) => String(Math.round(Number(n) * 100) / 1000);

/**
 * The inner drawing (`<svg class="definition-scale">`) in units ten times coarser: positions
 * rounded to a whole unit, sizes (stroke widths, radii, font sizes) and glyph scales kept exact.
 * @param {string} svg
 * @returns {string}
 */
function coarser(svg) {
  const start = svg.indexOf('<svg class="definition-scale"');
  const end = svg.lastIndexOf('</svg>', svg.lastIndexOf('</svg>') - 1);
  if (start < 0 || end < start) return svg;
  const inner = svg
    .slice(start, end)
    .replace(/ (d|points)="([^"]*)"/g, (_, k, v) => ` ${k}="${v.replace(/-?\d+(?:\.\d+)?/g, whole)}"`)
    .replace(/ (x|y|cx|cy)="(-?[\d.]+)"/g, (_, k, v) => ` ${k}="${whole(v)}"`)
    .replace(/ (rx|ry|width|height|stroke-width)="(-?[\d.]+)"/g, (_, k, v) => ` ${k}="${tenth(v)}"`)
    .replace(/ font-size="(-?[\d.]+)px"/g, (_, v) => ` font-size="${tenth(v)}px"`)
    .replace(/translate\((-?[\d.]+),\s*(-?[\d.]+)\)/g, (_, x, y) => `translate(${whole(x)},${whole(y)})`)
    .replace(/scale\((-?[\d.]+),\s*(-?[\d.]+)\)/g, (_, x, y) => `scale(${thousandth(x)},${thousandth(y)})`)
    .replace(/viewBox="0 0 ([\d.]+) ([\d.]+)"/, (_, w, h) => `viewBox="0 0 ${whole(w)} ${whole(h)}"`);
  return svg.slice(0, start) + inner + svg.slice(end);
}

/** Remove `<g>` (no attributes) around its content, and `<g/>`. */
function unwrapBareGroups(svg) {
  /** @type {boolean[]} for each open <g>: whether its tags are kept */
  const open = [];
  let out = '';
  let last = 0;
  for (const m of svg.matchAll(/<g\b([^>]*?)(\/?)>|<\/g>/g)) {
    out += svg.slice(last, m.index);
    last = /** @type {number} */ (m.index) + m[0].length;
    if (m[0] === '</g>') {
      if (open.pop() !== false) out += m[0];
    } else {
      const bare = m[1].trim() === '';
      if (m[2] === '/') {
        if (!bare) out += m[0];
      } else {
        open.push(!bare);
        if (!bare) out += m[0];
      }
    }
  }
  return out + svg.slice(last);
}
