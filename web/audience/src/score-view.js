// The engraved score on the audience page (docs/how-to/part-pages-notation.md#let-the-audience-follow-the-score):
// a view whose `score` names a part (or "all") shows that part's phone pages with a cursor on the
// beat, with the part page's own view (../shared/notation-view.js); `score` removed takes them
// down. Nothing of it runs, and nothing is fetched, until a view shows the score: the view and its
// listeners are made on the first one. The pages are score media (media/notation/…), the same on
// the venue and at the edge; a part not there yet (503 while engraving, 404 at the edge before
// the upload) is asked for again, with one line saying so.

import { AUDIENCE_NOTATION_LAYOUT } from '#core/score/audience-score.js';
import { AUDIENCE_URLS, createNotationSource } from '../shared/notation-source.js';
import { createNotationView } from '../shared/notation-view.js';

/**
 * @param {{ base: string, source?: () => Pick<ReturnType<typeof createNotationSource>, 'map' | 'page'> }} options `base`: the
 *   audience page's URL; `source`: where the pages come from instead of its score media (the
 *   console editor's phone preview: the console's keyed notation route, web/console/editor/phone-main.js)
 */
export function createScoreView({ base, source = () => createNotationSource({ base, urls: AUDIENCE_URLS, missingIsPending: true }) }) {
  /** @type {ReturnType<typeof createNotationView> | null} */
  let notation = null;
  /** @type {string | null} */
  let shown = null;
  let bars = 0;
  /** The last beat shown, so a score shown while the show stands still gets its cursor at once. */
  let last = /** @type {[any, number[], boolean] | null} */ (null);

  return {
    /**
     * The view's `score` (a part id, "all", or nothing) for a piece of `pieceBars` bars.
     * @param {unknown} part
     * @param {number} pieceBars
     */
    show(part, pieceBars) {
      const next = typeof part === 'string' && part !== '' && pieceBars > 0 ? part : null;
      if (next === shown && (next === null || pieceBars === bars)) return;
      shown = next;
      bars = pieceBars;
      if (next === null) {
        notation?.clear();
        return;
      }
      notation ??= createNotationView({
        source: source(),
        layout: () => AUDIENCE_NOTATION_LAYOUT,
      });
      if (last) notation.follow(...last);
      notation.load(next, pieceBars);
    },
    /**
     * The beat on screen (with the bars to come, in performance order).
     * @param {{ index: number, bar: number, beat: number, beats: number }} where
     * @param {number[]} upcoming
     * @param {boolean} playing
     */
    follow(where, upcoming, playing) {
      last = [where, upcoming, playing];
      if (shown !== null) notation?.follow(where, upcoming, playing);
    },
    /** Whether a score is shown now. */
    showing: () => shown !== null,
    /** For the browser tests: the part shown and what the notation view did. */
    inspect: () => ({ part: shown, ...(notation?.inspect() ?? { moves: [], turns: [], paging: null, screen: null, loaded: false }) }),
  };
}
