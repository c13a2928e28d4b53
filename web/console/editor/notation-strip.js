// The engraved notation in the editor's timeline (docs/tutorials/first-piece-without-json.md#read-the-timeline):
// each bar's measure, cropped from the full score's pages by its box in the bar map
// (docs/reference/notation.md#the-bar-map), in the bar's cell of the timeline's notation row. A
// page is fetched, and a crop drawn, only when its cell scrolls into view. The map and pages come
// through the part page's own notation source (web/audience/shared/notation-source.js: the same
// checks of the map) from the console's route behind the part key
// (local-server/src/console/console-part-notation.js).

/** The notation row's height (editor.css .ed-notation). */
export const NOTATION_ROW_PX = 72;
/** Room above and below a bar's staff box, in staff heights (chord names above, low notes below). */
const ABOVE = 1.2;
const BELOW = 0.4;
/** Tries while the server engraves (503 + Retry-After), bounded. */
const MAX_WAITS = 90;
/** Wide pages: the crops are drawn from the landscape tablet's engraving of the full score. */
const LAYOUT = 'tablet-landscape';

/**
 * @param {{ base: string, bars: number, scroller: HTMLElement, onMap: (draw: ((bar: number, cell: HTMLElement) => void) | null, note: string) => void }} options
 *   `onMap` is called once the bar map is in (with the drawing function), or with null and why not
 * @returns {{ stop: () => void, painted: () => number[] }}
 */
export function createNotationStrip({ base, bars, scroller, onMap }) {
  /** @type {any} the part page's notation source, loaded when needed: without it the console still runs */
  let source = null;
  /** @type {Map<number, Promise<string | null>>} page → data: URL */
  const pages = new Map();
  /** @type {WeakMap<Element, number>} */
  const barOf = new WeakMap();
  /** Bars whose crop went on screen, for the tests (and the lazy loading they check). */
  const painted = new Set();
  let stopped = false;
  let timer = 0;
  /** @type {any} */
  let map = null;
  /** @type {(n: number) => string} */
  let pageUrl = () => '';

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        void paint(/** @type {HTMLElement} */ (entry.target));
      }
    },
    { root: scroller, rootMargin: '0px 256px' },
  );

  function pageSrc(/** @type {number} */ n) {
    let got = pages.get(n);
    if (!got) {
      got = source.page(pageUrl(n));
      got.then((src) => src === null && pages.delete(n)); // a failed page is asked again next time
      pages.set(n, got);
    }
    return got;
  }

  /** Draw one bar's measure, scaled into its cell (the bar map's box, in page units). */
  async function paint(/** @type {HTMLElement} */ cell) {
    const bar = barOf.get(cell);
    const box = bar ? map?.bars[bar - 1] : null;
    if (!box) return;
    const src = await pageSrc(box.page);
    if (!src || !cell.isConnected) return;
    // The box is the staff's: chord names, marks and tempo sit above it, so the crop takes them too.
    const top = box.y - box.h * ABOVE;
    const high = box.h * (1 + ABOVE + BELOW);
    const width = parseFloat(cell.style.width) || box.w;
    const k = Math.min((width - 2) / box.w, NOTATION_ROW_PX / high);
    const img = /** @type {HTMLImageElement} */ (document.createElement('img'));
    img.alt = '';
    img.src = src;
    Object.assign(img.style, { width: `${map.width * k}px`, left: `${-box.x * k}px`, top: `${-top * k}px` });
    const crop = document.createElement('div');
    crop.className = 'ed-crop';
    Object.assign(crop.style, { width: `${box.w * k}px`, height: `${high * k}px` });
    crop.append(img);
    cell.replaceChildren(crop);
    cell.dataset.painted = 'true';
    painted.add(bar);
  }

  /** Each render of the timeline hands every bar's cell here, bar 1 first. */
  function draw(/** @type {number} */ bar, /** @type {HTMLElement} */ cell) {
    if (bar === 1) observer.disconnect(); // a new render: the old cells are gone
    cell.dataset.bar = String(bar);
    barOf.set(cell, bar);
    observer.observe(cell);
  }

  async function load(waits = 0) {
    if (!source) {
      try {
        const { createNotationSource } = await import('/console/web-audience/shared/notation-source.js');
        source = createNotationSource({ base: new URL(base, location.href).href });
      } catch {
        return onMap(null, 'Notation not shown: the part page code is not available');
      }
    }
    const got = await source.map('*', LAYOUT, bars);
    if (stopped) return;
    if (!('error' in got)) {
      map = got.map;
      pageUrl = got.pageUrl;
      onMap(draw, '');
    } else if (got.error === 'busy' && waits < MAX_WAITS) {
      onMap(null, 'Notation: being engraved…');
      timer = window.setTimeout(() => void load(waits + 1), (got.retryAfter ?? 2) * 1000);
    } else onMap(null, got.error === 'none' ? '' : `Notation not shown: ${got.message || got.error}`);
  }
  void load();

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      observer.disconnect();
    },
    painted: () => [...painted].sort((a, b) => a - b),
  };
}
