// Runs inside the editor's phone preview frame (/console/editor/phone.html, which is the audience
// page's own markup, local-server/src/console/console-ui.js). It draws with the audience page's
// view code itself (web/audience/src/view.js, served as it is): what the preview shows is what a
// phone's view code shows for that state. The console hands it a state with `show()`; nothing
// here talks to the network.

import { createView } from '/console/audience/view.js';

// Image URLs (media/<src>, core/score/audience-view.js) resolve to the score's images on this
// listener (local-server/src/console/console-score-media.js), as a phone's resolve on the audience's.
const view = createView({ base: new URL('/console/score/', window.location.href) });
// The phone's own buttons (Join, vibrate) and connection pill are not part of the preview.
for (const id of ['join', 'vibrate', 'conn']) {
  const el = document.getElementById(id);
  if (el) el.hidden = true;
}

/**
 * What a phone shows at one place of the piece, stopped there.
 * @param {{ frame: Parameters<ReturnType<typeof createView>['frame']>[0], view: Record<string, any> }} state
 */
function show(state) {
  view.frame(state.frame);
  view.view(state.view);
  document.body.dataset.previewBar = String(state.frame.position?.bar ?? '');
  document.body.dataset.previewBeat = String(state.frame.position?.beat ?? '');
}

/** @type {any} */ (window).tuttiPhone = { show };
window.dispatchEvent(new Event('tutti-phone-ready'));
