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

  async function pageSrc(n) {
    const got = pages.get(n);
    if (typeof got === 'string') return got;
    const pending = got ?? source.page(pageUrl(n)).then((src) => (src ? (pages.set(n, src), src) : (pages.delete(n), null)));
    pages.set(n, pending);
    return pending;
  }

  /** Put a page half into a slot box (px), scaled to fit it. */
  function fill(slot, half, box, scale) {
    slot.hidden = !half;
    if (!half) return;
    const band = (Math.min(half.y1, bottom) - half.y0) * scale;
    const k = Math.min(1, box.h / band);
    const img = /** @type {HTMLImageElement} */ (slot.firstElementChild);
    // Only the half itself: the rest of its page must not show below it.
    Object.assign(slot.style, { top: `${box.y}px`, height: `${band * k}px`, width: `${map.width * scale}px` });
    Object.assign(img.style, {
      width: `${map.width * scale * k}px`,
      top: `${-half.y0 * scale * k}px`,
      left: `${(map.width * scale * (1 - k)) / 2}px`,
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

  /** Draw the screen and the cursor in it. */
  function draw() {
    if (!map || !halves) return;
    const shown = paging !== null ? pageScreen(halves, paging) : screen;
    if (!shown) return;
    const room = music.getBoundingClientRect();
    const pager = $('pager').getBoundingClientRect().height;
    const scale = Math.max(0.1, Math.min(room.width / map.width, (room.height - pager - 4) / bottom));
    sheet.style.width = `${map.width * scale}px`;
    sheet.style.height = `${bottom * scale}px`;
    const split = Math.min(bottom, shown.upper.half === 'top' ? shown.upper.y1 : (shown.lower?.y0 ?? bottom));
    fill(slots[0], shown.upper, { y: 0, h: split * scale }, scale);
    fill(slots[1], shown.lower, { y: split * scale, h: (bottom - split) * scale }, scale);
    slots[1].classList.toggle('turned', Boolean(shown.lower && shown.lower.page !== shown.upper.page));
    const box = map.bars[at.bar - 1];
    const slot = slots.find(
      (s) => !s.hidden && box && s.dataset.page === String(box.page) && halves?.halfOfBar(at.bar)?.half === s.dataset.half,
    );
    cursor.hidden = !slot;
    if (slot && box) {
      const p = cursorPoint(box, at.beat, at.beats);
      const half = /** @type {any} */ (halves.halfOfBar(at.bar));
      const k = Number(slot.dataset.k) * scale;
      const left = parseFloat(/** @type {HTMLElement} */ (slot.firstElementChild).style.left) || 0;
      Object.assign(cursor.style, {
        left: `${left + p.x * k}px`,
        top: `${parseFloat(slot.style.top) + (p.y - half.y0) * k}px`,
        height: `${p.h * k}px`,
        width: `${Math.max(4, (box.w / Math.max(at.beats, 1)) * k)}px`,
      });
    }
    const label = paging !== null ? t('notation.page', { page: paging, of: map.pages }) : turnLabel(shown);
    $('page-label').textContent = label;
    /** @type {HTMLButtonElement} */ ($('page-prev')).disabled = playing || (paging ?? shown.upper.page) <= 1;
    /** @type {HTMLButtonElement} */ ($('page-next')).disabled = playing || (paging ?? shown.upper.page) >= map.pages;
  }

  /** A screen's halves as text ("2top/2bottom"), for comparing and for the tests. */
  const nameOf = (s) => (s ? `${s.upper.page}${s.upper.half}/${s.lower ? `${s.lower.page}${s.lower.half}` : ''}` : '');

  const turnLabel = (s) =>
    s.lower && s.lower.page !== s.upper.page
      ? t('notation.pages', { a: s.upper.page, b: s.lower.page, of: map.pages })
      : t('notation.page', { page: s.upper.page, of: map.pages });

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
  /**
   * Landscape: the counter and cues beside the music, or below it when that draws the music larger
   * (a wide, short page: a part with few systems). Portrait: always above it (styles.css).
   */
  function arrange() {
    if (!map) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const top = document.querySelector('.top')?.getBoundingClientRect().height ?? 60;
    const room = { w: innerWidth - 1.6 * rem, h: innerHeight - top - 4.5 * rem };
    const beside = Math.min((room.w - 16.2 * rem) / map.width, room.h / bottom);
    const below = Math.min(room.w / map.width, (room.h - 12 * rem) / bottom);
    document.body.classList.toggle('notation-wide', innerWidth > innerHeight && below > beside);
  }

  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => {
      if (want.part !== null && shapeFor(innerWidth, innerHeight) !== want.layout) load(want.part, want.bars);
      else {
        arrange();
        draw();
      }
    }, 150);
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
      document.body.classList.toggle('has-notation', false);
      music.hidden = got.error === 'none';
      for (const slot of slots) slot.hidden = true; // never a page, or a cursor, that may be wrong
      cursor.hidden = true;
      sheet.style.height = '0';
      const why = 'message' in got && got.message ? ` (${got.message})` : '';
      note(got.error === 'none' ? '' : `${t(`notation.${got.error}`)}${why}`);
      if (got.error === 'busy') retry = window.setTimeout(() => load(part, bars), (got.retryAfter ?? 2) * 1000);
      return;
    }
    map = got.map;
    halves = pageHalves(map);
    bottom = Math.min(map.height, Math.max(...map.bars.map((b) => b.y + b.h)) + map.height * 0.03);
    arrange();
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
