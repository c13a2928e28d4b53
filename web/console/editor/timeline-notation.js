// The engraved notation above the editor's timeline (docs/reference/score-editing-api.md): the
// part key the console shows (GET /api/parts) names the keyed notation URLs on the control
// listener (local-server/src/console/console-part-notation.js); the strip draws each bar's
// measure when it scrolls into view. Without notation (or until it is engraved) the bar grid stays.

import { $ } from '../dom.js';
import { createNotationStrip } from './notation-strip.js';

/**
 * @param {{
 *   api: ReturnType<typeof import('../api.js').createApi>,
 *   state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   timeline: ReturnType<typeof import('./timeline-view.js').createTimelineView>,
 *   say: (text: string, kind?: string) => void,
 * }} deps
 */
export function createTimelineNotation({ api, state, timeline, say }) {
  /** The part pages' keyed URL on this listener, once known. */
  let partBase = /** @type {string | null} */ (null);
  /** @type {ReturnType<typeof createNotationStrip> | null} */
  let strip = null;
  let notationFor = '';

  /** Ask which part key the console shows: the notation and the part preview use it. */
  async function loadBase() {
    try {
      const { url } = await api.get('/api/parts');
      const key = new URL(url).pathname.split('/')[2];
      partBase = key ? `/console/part/${key}/` : null;
    } catch {
      partBase = null; // the bar grid stays, and the part preview shows no notation
    }
  }

  /** Draw the score's notation when it has one, again only when the score or key changed. */
  function follow() {
    const score = state.good();
    const want = score?.notation && partBase ? `${partBase}|${score.bars}` : '';
    if (want === notationFor) return;
    notationFor = want;
    strip?.stop();
    strip = null;
    timeline.setNotation(null);
    if (!want || !partBase) return;
    strip = createNotationStrip({
      base: partBase,
      bars: score.bars,
      scroller: $('ed-timeline'),
      onMap: (draw, why) => {
        $('ed-timeline').dataset.notation = why || 'drawn';
        if (draw) timeline.setNotation(draw);
        // Why a score's notation is not drawn is news; "being engraved" is not (it comes when made).
        else if (why.startsWith('Notation not shown')) say(why, 'warn');
      },
    });
  }

  return {
    loadBase,
    follow,
    /** @returns {string | null} the keyed part URL, or null before it is known */
    base: () => partBase,
    /** The bars whose measure went on screen (for the tests). */
    painted: () => strip?.painted() ?? null,
  };
}
