// Rehearsal mode (docs/how-to/rehearse.md#rehearsal-mode): while the operator rehearses, the hall's phones
// show a calm "the show starts soon" screen. The state every viewer reads says so with a
// top-level `"rehearsal": true`, and no vote, no reaction window and no current sound (`audio`;
// the page plays none of the sounds in `ahead` either). Views, section, position and the
// flywheel stay, so the console and the part pages keep following the run-through and a
// phone shows the show's current state the moment rehearsal mode ends. Pure and runtime-free.

import { isPlainObject } from '#core/protocol/merge-patch.js';

/** The keys a phone could act on, withheld during rehearsal. */
const WITHHELD = ['audio', 'vote', 'react'];

/**
 * The state the audience gets for `state` while rehearsal mode is on: `rehearsal: true`, without
 * `audio`, `vote` and `react`. `ahead` is left as it is: changing the flywheel's window in the
 * middle of a chunk would replay its views on the page; the page plays none of its sounds while
 * the state says rehearsal. Never changes `state` itself.
 * @param {Record<string, unknown>} state
 * @returns {Record<string, unknown>}
 */
export function rehearsalState(state) {
  const out = { ...state, rehearsal: true };
  for (const key of WITHHELD) delete out[key];
  return out;
}

/**
 * Whether a state (full or lean, venue or edge) says the show is in rehearsal mode.
 * @param {unknown} state
 */
export const inRehearsal = (state) => isPlainObject(state) && /** @type {any} */ (state).rehearsal === true;
