// Rehearsal mode (docs/how-to/rehearse.md#rehearsal-mode): while the state says `"rehearsal": true` the page
// shows a calm "Rehearsal — the show starts soon" screen instead of the bars, the composer's
// views, votes and reactions (rehearsal-screen.css hides them), and main.js plays no sound and
// speaks nothing of the run-through. Said once in the polite live region when it appears; when
// rehearsal mode ends main.js shows the show's current state at once.

import { inRehearsal } from '#core/stream/rehearsal-state.js';
import { announcer } from './announcer.js';
import { t } from './i18n.js';

/**
 * @returns {{ update: (state: unknown) => boolean, on: () => boolean }} update: whether it changed
 */
export function createRehearsalScreen() {
  const box = /** @type {HTMLElement} */ (document.getElementById('rehearsal'));
  let on = false;
  return {
    update(state) {
      const next = inRehearsal(state);
      if (next === on) return false;
      on = next;
      if (on) document.body.dataset.rehearsal = 'on';
      else delete document.body.dataset.rehearsal;
      box.hidden = !on;
      if (on) announcer().say(t('rehearsal.said'));
      return true;
    },
    on: () => on,
  };
}
