// Runs inside the editor's phone preview frame (/console/editor/phone.html, which is the audience
// page's own markup, local-server/src/console/console-ui.js). It draws with the audience page's
// view code itself (web/audience/src/view.js, served as it is): what the preview shows is what a
// phone's view code shows for that state, the engraved score a view shows included (the audience
// page's web/audience/src/score-view.js, its pages from the console's keyed notation route,
// local-server/src/console/console-part-notation.js). The console hands it a state with `show()`;
// nothing else here talks to the network.

import { createView } from '/console/audience/view.js';
import { createScoreView } from '/console/web-audience/src/score-view.js';
import { createNotationSource } from '/console/web-audience/shared/notation-source.js';
import { upcomingBars } from '/core/client/page-turns.js';

// Image URLs (media/<src>, core/score/audience-view.js) resolve to the score's images on this
// listener (local-server/src/console/console-score-media.js), as a phone's resolve on the audience's.
const view = createView({ base: new URL('/console/score/', window.location.href) });
/** The notation pages' source: follows the keyed URL the console knows (null: none). */
let notationBase = /** @type {string | null} */ (null);
let source = /** @type {ReturnType<typeof createNotationSource> | null} */ (null);
const scoreView = createScoreView({
  base: window.location.href,
  source: () => ({
    map: (part, layout, bars) => (source ? source.map(part, layout, bars) : Promise.resolve({ error: 'none' })),
    page: (url) => (source ? source.page(url) : Promise.resolve(null)),
  }),
});
// The phone's own buttons (Join, vibrate) and connection pill are not part of the preview.
for (const id of ['join', 'vibrate', 'conn']) {
  const el = document.getElementById(id);
  if (el) el.hidden = true;
}

/**
 * What a phone shows at one place of the piece, stopped there.
 * @param {{ frame: Parameters<ReturnType<typeof createView>['frame']>[0], view: Record<string, any>, notationBase?: string | null }} state
 *   `notationBase`: the keyed notation URL on the console's listener (/console/part/<key>/), null
 *   when the score has no notation or the console no key
 */
function show(state) {
  view.frame(state.frame);
  view.view(state.view);
  const base = state.notationBase ?? null;
  if (base !== notationBase) {
    notationBase = base;
    source = base ? createNotationSource({ base: new URL(base, window.location.href).href }) : null;
    scoreView.show(null, 0); // pages from the new source
  }
  const position = state.frame.position;
  const bars = state.frame.score?.bars ?? 0;
  scoreView.show(base ? state.view.score : null, bars);
  if (position) scoreView.follow({ index: 0, ...position }, upcomingBars({ bar: position.bar, bars }), false);
  document.body.dataset.previewBar = String(state.frame.position?.bar ?? '');
  document.body.dataset.previewBeat = String(state.frame.position?.beat ?? '');
}

/** @type {any} */ (window).tuttiPhone = { show };
window.dispatchEvent(new Event('tutti-phone-ready'));
