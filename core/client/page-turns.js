// Half-page turns on the part page (docs/how-to/part-pages-notation.md#how-pages-turn), from the
// notation's bar map (docs/reference/notation.md#the-bar-map): every page is cut between two systems into a top
// and a bottom half, and the screen holds two halves. The half with the bar being played stays
// put; the other slot shows the half of the next bar, in performance order, that is not in it.
// So the coming system is on screen before the player needs it, across repeats, endings and
// D.C./D.S. (the map has one entry per performance bar), rehearsal loops and jumps (the bars
// the show will play next, from the flywheel's segment and loop). Pure and runtime-free.

import { followingSegment } from './flywheel.js';
import { isSegment } from '#core/engine/segment.js';
import { loopsBackFrom } from '#core/engine/loop.js';

/**
 * @typedef {{ bar: number, printed: number, page: number, x: number, y: number, w: number, h: number }} BarBox
 * @typedef {{ pages: number, width: number, height: number, bars: BarBox[] }} BarMap
 * @typedef {{ page: number, half: 'top' | 'bottom', y0: number, y1: number }} Half
 * @typedef {{ upper: Half, lower: Half | null }} Screen
 */

/** Page units around a lone system (a page with one system has no bottom half). */
const LONE_MARGIN = 12;

/**
 * The halves of every page and the half of every performance bar.
 * @param {BarMap} map
 * @returns {{ halves: Map<string, Half>, halfOfBar: (bar: number) => Half | null, pageHalves: (page: number) => Half[] }}
 */
export function pageHalves(map) {
  /** @type {Map<number, Array<{ y: number, h: number }>>} systems per page, by their top */
  const systems = new Map();
  for (const b of map.bars) {
    const list = systems.get(b.page) ?? [];
    if (!list.some((s) => Math.abs(s.y - b.y) < 1)) list.push({ y: b.y, h: b.h });
    systems.set(b.page, list);
  }
  /** @type {Map<string, Half>} */
  const halves = new Map();
  /** @type {Map<number, number>} page → y where its bottom half starts (Infinity: none) */
  const splits = new Map();
  for (const [page, list] of systems) {
    list.sort((a, b) => a.y - b.y);
    if (list.length === 1) {
      const s = list[0];
      halves.set(`${page}:top`, { page, half: 'top', y0: 0, y1: Math.min(map.height, s.y + s.h + LONE_MARGIN) });
      splits.set(page, Infinity);
      continue;
    }
    const top = Math.ceil(list.length / 2);
    const last = list[top - 1];
    const split = (last.y + last.h + list[top].y) / 2;
    halves.set(`${page}:top`, { page, half: 'top', y0: 0, y1: split });
    halves.set(`${page}:bottom`, { page, half: 'bottom', y0: split, y1: map.height });
    splits.set(page, split);
  }
  const byBar = new Map(map.bars.map((b) => [b.bar, b]));
  return {
    halves,
    halfOfBar(bar) {
      const b = byBar.get(bar);
      if (!b) return null;
      const split = splits.get(b.page) ?? Infinity;
      return halves.get(`${b.page}:${b.y + b.h / 2 < split ? 'top' : 'bottom'}`) ?? null;
    },
    pageHalves: (page) => [halves.get(`${page}:top`), halves.get(`${page}:bottom`)].filter((h) => h !== undefined),
  };
}

/**
 * The bars the show plays after `bar`, in order, as far as the page can know: a jump already
 * announced (a vote's branch, a seek: the segment the flywheel holds starts elsewhere), then the
 * bars to the end of a rehearsal loop that goes round and back from its first bar, then on to
 * the end of the piece. At most `limit` bars.
 * @param {{ bar: number, bars: number, next?: number | null, loop?: { from: number, to: number } | null, limit?: number }} where
 *   `next`: the bar the flywheel's next segment starts on when it is not `bar + 1`'s run (a jump);
 *   `loop`: a loop going round (its first and last bar) that holds `bar`
 * @returns {number[]}
 */
export function upcomingBars({ bar, bars, next = null, loop = null, limit = 64 }) {
  const out = [];
  let at = next ?? bar + 1;
  let rounds = 0;
  while (out.length < limit && at >= 1 && at <= bars) {
    out.push(at);
    if (loop && at === loop.to && rounds < 2) {
      at = loop.from;
      rounds += 1;
    } else at += 1;
  }
  return out;
}

/**
 * The bars to come after the beat shown, from the state the flywheel holds: a segment that starts
 * elsewhere in the future is a jump already announced (a vote's branch, a loop's next pass), and
 * a rehearsal loop going round (the state's `loop`) comes back to its first bar.
 * @param {Record<string, any> | null} lean the lean state
 * @param {{ index: number, bar: number }} beat the beat shown
 * @param {number} bars the score's bars
 * @param {number} serverNow
 * @returns {number[]}
 */
export function barsAfter(lean, beat, bars, serverNow) {
  const segment = lean?.transport === 'playing' && isSegment(lean.segment) ? lean.segment : null;
  const then = segment ? followingSegment(segment) : null;
  const ahead = [segment, then].find((s) => s && s.at > serverNow && s.bar !== beat.bar && s.bar !== beat.bar + 1);
  const loop = lean?.loop && loopsBackFrom(lean.loop, beat.index) ? { from: lean.loop.from.bar, to: lean.loop.to.bar } : null;
  return upcomingBars({ bar: beat.bar, bars, next: ahead ? ahead.bar : null, loop });
}

const same = (a, b) => a === b || (a !== null && b !== null && a.page === b.page && a.half === b.half);

/**
 * What the screen shows with `bar` sounding and `upcoming` to come: the bar's half in its own slot
 * (a top half above, a bottom half below), the half of the first coming bar outside it in the
 * other slot (in its place, or scaled into the other slot when both are tops or both bottoms).
 * With nothing outside it to come, the other slot keeps what it showed, else the page's other half.
 * @param {ReturnType<typeof pageHalves>} halves
 * @param {number} bar
 * @param {number[]} upcoming
 * @param {Screen | null} previous
 * @returns {Screen | null}
 */
export function screenFor(halves, bar, upcoming, previous) {
  const now = halves.halfOfBar(bar);
  if (!now) return previous;
  let coming = null;
  for (const b of upcoming) {
    const h = halves.halfOfBar(b);
    if (h && !same(h, now)) {
      coming = h;
      break;
    }
  }
  if (!coming) {
    const kept = previous && (same(previous.upper, now) ? previous.lower : same(previous.lower, now) ? previous.upper : null);
    coming = kept ?? halves.pageHalves(now.page).find((h) => !same(h, now)) ?? null;
  }
  // The bar's half keeps its place; a coming half that is of the same kind takes the other slot.
  if (now.half === 'top') return { upper: now, lower: coming };
  return coming ? { upper: coming, lower: now } : { upper: now, lower: null };
}

/**
 * The whole page `page`, as the screen shows it while the player pages freely.
 * @param {ReturnType<typeof pageHalves>} halves
 * @param {number} page
 * @returns {Screen | null}
 */
export function pageScreen(halves, page) {
  const [upper, lower = null] = halves.pageHalves(page);
  return upper ? { upper, lower } : null;
}

/**
 * Where the cursor stands in a bar's box: the left edge of beat `beat` of `beats`, in page units.
 * @param {BarBox} box
 * @param {number} beat 1-based
 * @param {number} beats
 * @returns {{ x: number, y: number, h: number }}
 */
export function cursorPoint(box, beat, beats) {
  const fraction = beats > 0 ? Math.min(Math.max((beat - 1) / beats, 0), 1) : 0;
  return { x: box.x + box.w * fraction, y: box.y, h: box.h };
}

/**
 * Is a fetched bar map usable for a score of `bars` performance bars (never trust the network)?
 * @param {unknown} value
 * @param {number} bars
 * @returns {value is BarMap}
 */
export function isBarMap(value, bars) {
  if (typeof value !== 'object' || value === null) return false;
  const m = /** @type {Record<string, any>} */ (value);
  const num = (x) => typeof x === 'number' && Number.isFinite(x);
  if (!Number.isInteger(m.pages) || m.pages < 1 || m.pages > 2000 || !num(m.width) || !num(m.height)) return false;
  if (!Array.isArray(m.bars) || m.bars.length !== bars) return false;
  return m.bars.every(
    (b, i) =>
      b && b.bar === i + 1 && Number.isInteger(b.page) && b.page >= 1 && b.page <= m.pages && ['x', 'y', 'w', 'h'].every((k) => num(b[k])),
  );
}
