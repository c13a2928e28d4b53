// The engraved pages with a cursor, on the part page (docs/how-to/part-pages-notation.md) and on
// the audience page when a view shows the score
// (docs/how-to/part-pages-notation.md#let-the-audience-follow-the-score): two page halves on
// screen (core/client/page-turns.js: the half being played stays, the other turns ahead), a
// cursor on the bar and beat shown (moved by each page's main.js at the beat's time, with the beat display),
// free paging while the show is stopped (buttons, arrow/page keys, a swipe) and back to the
// cursor on play. A page turn is spoken once (aria-live), never a beat. Only attributes, styles
// and textContent are written; the pages are <img>s, which never run what an SVG holds.

import { pageHalves, screenFor, pageScreen, cursorPoint } from '#core/client/page-turns.js';
import { layoutFor } from './notation-source.js';
import { announcer } from '../src/announcer.js';
import { t } from '../src/i18n.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const SWIPE_PX = 60;

/**
 * Put a page half into a slot box (px), scaled to fit it.
 * @param {HTMLElement} slot
 * @param {any} half a page half (core/client/page-turns.js), or null: the slot is hidden
 * @param {{ y: number, h: number }} box
 * @param {number} scale px per page unit
 * @param {{ width: number, bottom: number, pages: Map<number, any>, pageSrc: (n: number) => Promise<string | null> }} page
 */
function fill(slot, half, box, scale, { width, bottom, pages, pageSrc }) {
  slot.hidden = !half;
  if (!half) return;
  const band = (Math.min(half.y1, bottom) - half.y0) * scale;
  const k = Math.min(1, box.h / band);
  const img = /** @type {HTMLImageElement} */ (slot.firstElementChild);
  // Only the half itself: the rest of its page must not show below it.
  Object.assign(slot.style, { top: `${box.y}px`, height: `${band * k}px`, width: `${width * scale}px` });
  Object.assign(img.style, {
    width: `${width * scale * k}px`,
    top: `${-half.y0 * scale * k}px`,
    left: `${(width * scale * (1 - k)) / 2}px`,
  });
  img.alt = t('notation.half', { page: half.page, half: t(`notation.${half.half}`) });
  slot.dataset.page = String(half.page);
  slot.dataset.half = half.half;
  slot.dataset.k = String(k);
  const src = pages.get(half.page);
  if (typeof src === 'string') img.src = src;
  else
    pageSrc(half.page).then((s) => {
      if (s && slot.dataset.page === String(half.page)) img.src = s;
    });
}

/**
 * Put the cursor on the beat in the bar's box, in the slot showing it (none: hidden).
 * @param {HTMLElement} cursor
 * @param {HTMLElement | undefined} slot
 * @param {any} box the bar's box in the bar map
 * @param {any} half the page half the bar is in
 * @param {{ beat: number, beats: number }} at
 * @param {number} scale
 */
function placeCursor(cursor, slot, box, half, at, scale) {
  cursor.hidden = !slot;
  if (!slot || !box) return;
  const p = cursorPoint(box, at.beat, at.beats);
  const k = Number(slot.dataset.k) * scale;
  const left = parseFloat(/** @type {HTMLElement} */ (slot.firstElementChild).style.left) || 0;
  Object.assign(cursor.style, {
    left: `${left + p.x * k}px`,
    top: `${parseFloat(slot.style.top) + (p.y - half.y0) * k}px`,
    height: `${p.h * k}px`,
    width: `${Math.max(4, (box.w / Math.max(at.beats, 1)) * k)}px`,
  });
}

/** The player pages while stopped: the buttons, arrow and page keys, a swipe. */
function listenForPaging(/** @type {HTMLElement} */ sheet, /** @type {(step: number) => void} */ page) {
  $('page-prev').addEventListener('click', () => page(-1));
  $('page-next').addEventListener('click', () => page(1));
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown') page(1);
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') page(-1);
  });
  let swipeFrom = null;
  sheet.addEventListener('pointerdown', (e) => (swipeFrom = { x: e.clientX, y: e.clientY }));
  window.addEventListener('pointerup', (e) => {
    if (!swipeFrom) return;
    const dx = e.clientX - swipeFrom.x;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - swipeFrom.y)) page(dx < 0 ? 1 : -1);
    swipeFrom = null;
  });
}

/**
 * Landscape: the counter and cues beside the music, or below it when that draws the music larger
 * (a wide, short page: a part with few systems). Portrait: always above it (styles.css).
 */
function arrange(/** @type {any} */ map, /** @type {number} */ bottom) {
  if (!map) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const top = document.querySelector('.top')?.getBoundingClientRect().height ?? 60;
  const room = { w: innerWidth - 1.6 * rem, h: innerHeight - top - 4.5 * rem };
  const beside = Math.min((room.w - 16.2 * rem) / map.width, room.h / bottom);
  const below = Math.min(room.w / map.width, (room.h - 12 * rem) / bottom);
  document.body.classList.toggle('notation-wide', innerWidth > innerHeight && below > beside);
}

/** A screen's halves as text ("2top/2bottom"), for comparing and for the tests. */
const nameOf = (s) => (s ? `${s.upper.page}${s.upper.half}/${s.lower ? `${s.lower.page}${s.lower.half}` : ''}` : '');

const turnLabel = (s, pages) =>
  s.lower && s.lower.page !== s.upper.page
    ? t('notation.pages', { a: s.upper.page, b: s.lower.page, of: pages })
    : t('notation.page', { page: s.upper.page, of: pages });

/** Call `fn` once a window resize has settled (150 ms without another). */
function onResizeSettled(/** @type {() => void} */ fn) {
  let timer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = window.setTimeout(fn, 150);
  });
}

/**
 * No pages to show (none, being engraved, failed): never a page, or a cursor, that may be wrong;
 * the note says why.
 * @param {any} got what the notation source answered: { error, message? }
 * @param {{ music: HTMLElement, sheet: HTMLElement, slots: HTMLElement[], cursor: HTMLElement }} el
 */
function showUnavailable(got, { music, sheet, slots, cursor }) {
  document.body.classList.toggle('has-notation', false);
  music.hidden = got.error === 'none';
  for (const slot of slots) slot.hidden = true;
  cursor.hidden = true;
  sheet.style.height = '0';
  const why = 'message' in got && got.message ? ` (${got.message})` : '';
  $('notation-note').textContent = got.error === 'none' ? '' : `${t(`notation.${got.error}`)}${why}`;
}

/**
 * Size the sheet to the room the music has and fill its two slots with the screen's halves.
 * @param {{ music: HTMLElement, sheet: HTMLElement, slots: HTMLElement[], shown: any,
 *   page: { width: number, bottom: number, pages: Map<number, any>, pageSrc: (n: number) => Promise<string | null> } }} parts
 * @returns {number} the scale, px per page unit
 */
function layoutSheet({ music, sheet, slots, shown, page }) {
  const { width, bottom } = page;
  const room = music.getBoundingClientRect();
  const pager = $('pager').getBoundingClientRect().height;
  const scale = Math.max(0.1, Math.min(room.width / width, (room.height - pager - 4) / bottom));
  sheet.style.width = `${width * scale}px`;
  sheet.style.height = `${bottom * scale}px`;
  const split = Math.min(bottom, shown.upper.half === 'top' ? shown.upper.y1 : (shown.lower?.y0 ?? bottom));
  fill(slots[0], shown.upper, { y: 0, h: split * scale }, scale, page);
  fill(slots[1], shown.lower, { y: split * scale, h: (bottom - split) * scale }, scale, page);
  return scale;
}

/**
 * A page's image source, fetched once: a page being fetched is shared, one that failed is asked again.
 * @param {Map<number, string | Promise<string | null>>} pages
 * @param {number} n
 * @param {() => Promise<string | null>} fetchPage
 * @returns {Promise<string | null>}
 */
async function cachedPage(pages, n, fetchPage) {
  const got = pages.get(n);
  if (typeof got === 'string') return got;
  const pending = got ?? fetchPage().then((src) => (src ? (pages.set(n, src), src) : (pages.delete(n), null)));
  pages.set(n, pending);
  return pending;
}

/**
 * @param {{ source: ReturnType<typeof import('./notation-source.js').createNotationSource>,
 *   layout?: (width: number, height: number) => string }} options layout: the page shape for a
 *   screen (default: the tablet's or phone's that fits it; the audience always gets the phone's)
 */
export function createNotationView({ source, layout: shapeFor = layoutFor }) {
  const say = announcer().say;
  const music = $('music');
  const sheet = $('sheet');
  const cursor = $('cursor');
  const slots = /** @type {HTMLElement[]} */ ([...sheet.querySelectorAll('.slot')]);
  /** @type {any} */
  let map = null;
  /** @type {ReturnType<typeof pageHalves> | null} */
  let halves = null;
  /** @type {(n: number) => string} */
  let pageUrl = () => '';
  /** @type {Map<number, string | Promise<string | null>>} */
  const pages = new Map();
  /** @type {import('#core/client/page-turns.js').Screen | null} */
  let screen = null;
  let paging = /** @type {number | null} */ (null);
  let playing = false;
  let at = { bar: 0, beat: 0, beats: 1 };
  let want = { part: /** @type {string | null} */ (null), bars: 0, layout: '' };
  let retry = 0;
  /** Where the music ends on the pages (page units): the empty foot of a page is not drawn. */
  let bottom = 0;
  /** Cursor moves and page turns, for the tests: what went on screen, and when (page clock). */
  const moves = [];
  const turns = [];

  const note = (text) => {
    $('notation-note').textContent = text;
  };

  const pageSrc = (/** @type {number} */ n) => cachedPage(pages, n, () => source.page(pageUrl(n)));

  /** Draw the screen and the cursor in it. */
  function draw() {
    if (!map || !halves) return;
    const shown = paging !== null ? pageScreen(halves, paging) : screen;
    if (!shown) return;
    const scale = layoutSheet({ music, sheet, slots, shown, page: { width: map.width, bottom, pages, pageSrc } });
    slots[1].classList.toggle('turned', Boolean(shown.lower && shown.lower.page !== shown.upper.page));
    const box = map.bars[at.bar - 1];
    const slot = slots.find(
      (s) => !s.hidden && box && s.dataset.page === String(box.page) && halves?.halfOfBar(at.bar)?.half === s.dataset.half,
    );
    placeCursor(cursor, slot, box, slot && box ? halves.halfOfBar(at.bar) : null, at, scale);
    const label = paging !== null ? t('notation.page', { page: paging, of: map.pages }) : turnLabel(shown, map.pages);
    $('page-label').textContent = label;
    /** @type {HTMLButtonElement} */ ($('page-prev')).disabled = playing || (paging ?? shown.upper.page) <= 1;
    /** @type {HTMLButtonElement} */ ($('page-next')).disabled = playing || (paging ?? shown.upper.page) >= map.pages;
  }

  /** The screen follows the cursor: a turn (a slot showing another half) is spoken once. */
  function turnTo(next) {
    if (nameOf(next) === nameOf(screen)) return;
    const previous = screen;
    screen = next;
    turns.push({ screen: nameOf(next), bar: at.bar, beat: at.beat, local: performance.timeOrigin + performance.now() });
    if (turns.length > 500) turns.shift();
    // The half that came on screen is what the player hears about, once per turn (never a beat).
    const before = previous ? [previous.upper, previous.lower].map((h) => h && `${h.page}${h.half}`) : [];
    const fresh = [next?.upper, next?.lower].find((h) => h && !before.includes(`${h.page}${h.half}`));
    if (fresh && previous && playing)
      say(t('notation.turned', { where: t('notation.half', { page: fresh.page, half: t(`notation.${fresh.half}`) }) }), { kind: 'page' });
  }

  function page(step) {
    if (playing || !map) return;
    const from = paging ?? screen?.upper.page ?? 1;
    paging = Math.min(map.pages, Math.max(1, from + step));
    draw();
    say(t('notation.page', { page: paging, of: map.pages }));
  }

  listenForPaging(sheet, page);
  onResizeSettled(() => {
    if (want.part !== null && shapeFor(innerWidth, innerHeight) !== want.layout) load(want.part, want.bars);
    else {
      arrange(map, bottom);
      draw();
    }
  });

  /** @param {string} part @param {number} bars */
  async function load(part, bars) {
    const layout = shapeFor(innerWidth, innerHeight);
    want = { part, bars, layout };
    clearTimeout(retry);
    const got = await source.map(part, layout, bars);
    if (want.part !== part || want.layout !== layout) return;
    if ('error' in got) {
      map = null;
      showUnavailable(got, { music, sheet, slots, cursor });
      if (got.error === 'busy') retry = window.setTimeout(() => load(part, bars), (got.retryAfter ?? 2) * 1000);
      return;
    }
    map = got.map;
    halves = pageHalves(map);
    bottom = Math.min(map.height, Math.max(...map.bars.map((b) => b.y + b.h)) + map.height * 0.03);
    arrange(map, bottom);
    pageUrl = got.pageUrl;
    pages.clear();
    screen = null;
    music.hidden = false;
    document.body.classList.toggle('has-notation', true);
    note(t('notation.credit'));
    for (let n = 1; n <= map.pages; n += 1) pageSrc(n); // all pages ahead: a turn never waits
    if (at.bar) follow(at, [], playing);
    else draw();
  }

  /**
   * The bar and beat on screen now (with the bars to come, in performance order).
   * @param {{ index?: number, bar: number, beat: number, beats: number }} where
   * @param {number[]} upcoming
   * @param {boolean} isPlaying
   */
  function follow(where, upcoming, isPlaying) {
    const local = performance.timeOrigin + performance.now();
    at = { bar: where.bar, beat: where.beat, beats: where.beats };
    if (isPlaying && !playing) paging = null; // play: back to the cursor
    playing = isPlaying;
    cursor.dataset.cursorBar = String(at.bar);
    cursor.dataset.cursorBeat = String(at.beat);
    if (!halves) return;
    turnTo(screenFor(halves, at.bar, upcoming, screen));
    draw();
    moves.push({ index: where.index, bar: at.bar, beat: at.beat, playing, screen: nameOf(paging === null ? screen : null), local });
    if (moves.length > 4000) moves.shift();
  }

  return {
    load,
    follow,
    /** Forget the part (the picker is shown again). */
    clear() {
      clearTimeout(retry); // a part still being engraved is not asked for again
      want = { part: null, bars: 0, layout: '' };
      map = null;
      halves = null;
      music.hidden = true;
      document.body.classList.toggle('has-notation', false);
    },
    inspect: () => ({ moves: moves.slice(), turns: turns.slice(), paging, screen, loaded: map !== null }),
  };
}
