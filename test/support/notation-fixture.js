// Test support only: a part's notation in the shape of ../shared/SPEC.md §10 (bar map + SVG
// pages), engraved here with Verovio, so the part page can be developed and tested before the
// venue server's notation routes exist. Not a second engraver for the product: the server's
// routes replace it in the end-to-end tests as soon as they land.

import createVerovioModule from 'verovio/wasm';
import { VerovioToolkit } from 'verovio/esm';
import { readFile } from 'node:fs/promises';
import { printedBarAt } from '#core/score/printed-bars.js';

/** Page shapes for the fixture, in Verovio units (its pageWidth/pageHeight at `scale`). */
export const FIXTURE_LAYOUTS = {
  'tablet-landscape': { pageWidth: 2300, pageHeight: 1250, scale: 45 },
  'tablet-portrait': { pageWidth: 1600, pageHeight: 1650, scale: 45 },
  phone: { pageWidth: 1100, pageHeight: 1500, scale: 40 },
};

let toolkit = null;
async function verovio() {
  if (!toolkit) toolkit = new VerovioToolkit(await createVerovioModule());
  return toolkit;
}

/** Keep one `<part>` (and its `<score-part>`) of a MusicXML file: Verovio has no part filter. */
function keepPart(xml, index) {
  const ids = [...xml.matchAll(/<score-part\s+id="([^"]+)"/g)].map((m) => m[1]);
  let out = xml;
  ids.forEach((id, i) => {
    if (i === index) return;
    out = out.replace(new RegExp(`<score-part\\s+id="${id}"[\\s\\S]*?</score-part>`), '');
    out = out.replace(new RegExp(`<part\\s+id="${id}"[\\s\\S]*?</part>`), '');
  });
  return out;
}

/** Each measure's staff-line extent on one page, in the outer SVG's user units. */
function measureBoxes(svg) {
  const outer = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const inner = /class="definition-scale"[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const margin = /class="page-margin" transform="translate\(([\d.]+), ([\d.]+)\)"/.exec(svg);
  const ratio = Number(inner[1]) / Number(outer[1]);
  const [mx, my] = [Number(margin[1]), Number(margin[2])];
  /** @type {Map<string, {x0:number,x1:number,y0:number,y1:number}>} */
  const boxes = new Map();
  const parts = svg.split(/<g id="[^"]+" class="measure"/).slice(1);
  for (const chunk of parts) {
    const n = /data-n="([^"]+)"/.exec(chunk)?.[1];
    const body = chunk.split(/<g id="[^"]+" class="measure"/)[0];
    let box = null;
    for (const m of body.matchAll(/<path d="M(\d+) (\d+) L(\d+) (\d+)" stroke-width="13"/g)) {
      const [x0, y0, x1, y1] = m.slice(1).map(Number);
      if (y0 !== y1) continue;
      box = box
        ? { x0: Math.min(box.x0, x0), x1: Math.max(box.x1, x1), y0: Math.min(box.y0, y0), y1: Math.max(box.y1, y1) }
        : { x0, x1, y0, y1 };
    }
    if (n !== undefined && box && !boxes.has(n)) boxes.set(n, box);
  }
  const pad = 360; // two staff spaces above and below the staves
  const out = new Map();
  for (const [n, b] of boxes)
    out.set(n, {
      x: (b.x0 + mx) / ratio,
      y: (b.y0 + my - pad) / ratio,
      w: (b.x1 - b.x0) / ratio,
      h: (b.y1 - b.y0 + 2 * pad) / ratio,
    });
  return { width: Number(outer[1]), height: Number(outer[2]), boxes: out };
}

/**
 * Engrave one part of a MusicXML file and map the score's performance bars onto it.
 * @param {{ file: string, partIndex: number | null, layout: string, score: { bars: number, printedBars?: any[] }, options?: object }} options
 *   `options`: Verovio page options replacing the layout's
 * @returns {Promise<{ json: { pages: number, width: number, height: number, bars: any[] }, svgs: string[] }>}
 */
export async function engraveFixture({ file, partIndex, layout, score, options }) {
  const tk = await verovio();
  const xml = await readFile(file, 'utf8');
  tk.setOptions({
    ...(options ?? FIXTURE_LAYOUTS[layout] ?? FIXTURE_LAYOUTS['tablet-landscape']),
    breaks: 'auto',
    header: 'none',
    footer: 'none',
    svgViewBox: true,
    adjustPageHeight: false,
    svgAdditionalAttribute: ['measure@n'],
  });
  tk.loadData(partIndex === null ? xml : keepPart(xml, partIndex));
  const svgs = [];
  const where = new Map();
  let size = { width: 0, height: 0 };
  for (let p = 1; p <= tk.getPageCount(); p += 1) {
    const svg = tk.renderToSVG(p);
    svgs.push(svg);
    const { width, height, boxes } = measureBoxes(svg);
    size = { width, height };
    for (const [n, box] of boxes) if (!where.has(n)) where.set(n, { page: p, ...box });
  }
  const bars = [];
  for (let bar = 1; bar <= score.bars; bar += 1) {
    const printed = printedBarAt(score.printedBars, bar, score.bars)?.number ?? bar;
    const box = where.get(String(printed));
    if (!box) throw new Error(`fixture: no measure ${printed} for bar ${bar}`);
    bars.push({ bar, printed, ...box });
  }
  return { json: { pages: svgs.length, ...size, bars }, svgs };
}
