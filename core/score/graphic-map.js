// Where a graphic score's playhead is at any moment (docs/reference/graphic-scores.md#scrolling):
// the strip's x moves linearly in beats between two marks, and from the last mark to the strip's
// `end` over the rest of the piece. Beats, not milliseconds, so a tempo change (or the operator's
// tempo override) speeds the strip up without moving any mark.

import { mediaUrl } from './audience-view.js';
import { createTimeline } from './timeline.js';

/**
 * @typedef {object} GraphicStrip what a part page needs to scroll one strip (sent in its cue table)
 * @property {string} part a part id, or "all"
 * @property {Array<{ url: string, width: number, height: number }>} images left to right, at their pixel size
 * @property {number} height the strip's height in pixels (every image's)
 * @property {Array<{ i: number, x: number }>} marks beat index (0-based) → x, both increasing; the first at beat 0
 * @property {number} end x at the end of the piece (beat `totalBeats`)
 * @property {number} totalBeats
 */

/**
 * The strips of a validated, normalized score (core/score/validate.js), with marks as beat indices.
 * @param {import('./validate-limits.js').Score} score
 * @param {import('./timeline.js').Timeline} [timeline] the score's timeline, when already built
 * @returns {GraphicStrip[]}
 */
export function graphicStrips(score, timeline = createTimeline(score)) {
  const assets = new Map(score.assets.map((a) => [a.id, a]));
  return (score.graphic ?? []).map((entry) => ({
    part: entry.part,
    images: entry.images.map((image) => ({
      url: mediaUrl(/** @type {{ src: string }} */ (assets.get(image.asset))),
      width: image.width,
      height: image.height,
    })),
    height: entry.images[0].height,
    marks: entry.marks.map((mark) => ({ i: timeline.indexOf(mark.at.bar, mark.at.beat), x: mark.x })),
    end: entry.end,
    totalBeats: timeline.totalBeats,
  }));
}

/**
 * The strip a player follows: their part's own, else the one for "all", else none.
 * @param {ReadonlyArray<GraphicStrip>} strips
 * @param {string | null} partId
 * @returns {GraphicStrip | null}
 */
export function stripForPart(strips, partId) {
  return strips.find((s) => s.part === partId) ?? strips.find((s) => s.part === 'all') ?? null;
}

/**
 * The x under the playhead at a (fractional) beat index: before the first beat the first mark's
 * x, past the end the strip's `end`.
 * @param {GraphicStrip} strip
 * @param {number} index fractional beat index (0 = the first beat's start)
 * @returns {number}
 */
export function stripXAt(strip, index) {
  const { marks } = strip;
  if (index <= marks[0].i) return marks[0].x;
  if (index >= strip.totalBeats) return strip.end;
  // Binary search for the last mark at or before `index` (marks can number thousands).
  let lo = 0;
  let hi = marks.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (marks[mid].i <= index) lo = mid;
    else hi = mid;
  }
  const from = marks[lo];
  const to = marks[lo + 1] ?? { i: strip.totalBeats, x: strip.end };
  return from.x + ((to.x - from.x) * (index - from.i)) / (to.i - from.i);
}
