// What the page says when the edge reports that the venue is not there (docs/reference/publisher-protocol.md#venue-status)
// : the state's `venue` field is "lost" (the venue server went away mid-show) or
// "none" (nothing published yet, or a show that ended long ago). The beat display stops and a
// notice says why; it all comes back by itself with the next live state. The venue server's own
// state has no `venue` field: on the local network nothing here ever shows.

import { t } from './i18n.js';
import { announcer } from './announcer.js';

/**
 * @typedef {{ status: 'live' | 'lost' | 'none', since?: number }} Venue
 */

/**
 * The venue's status in a state, or null when the state does not carry one (the venue server).
 * @param {unknown} state
 * @returns {Venue | null}
 */
export function venueOf(state) {
  const v = /** @type {any} */ (state)?.venue;
  return v && (v.status === 'live' || v.status === 'lost' || v.status === 'none') ? v : null;
}

/**
 * True when nothing from the score should play: the venue is lost or there is no show.
 * @param {unknown} state
 */
export function venueOffline(state) {
  const v = venueOf(state);
  return v !== null && v.status !== 'live';
}

/**
 * The state to display while the venue is offline: the last one, held still. Without the
 * flywheel's segment the page would go on counting beats the venue is no longer playing.
 * @param {any} state
 */
export function heldWhileOffline(state) {
  if (!venueOffline(state)) return state;
  return { ...state, segment: undefined, ahead: undefined, transport: state.transport === 'playing' ? 'paused' : state.transport };
}

/** @param {number | undefined} since */
function timeOf(since) {
  return typeof since === 'number' && since > 0 ? new Date(since).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : null;
}

/**
 * @returns {{ update: (state: unknown) => void }}
 */
export function createVenueNotice() {
  const box = /** @type {HTMLElement} */ (document.getElementById('venue-notice'));
  let shown = '';
  return {
    update(state) {
      const v = venueOf(state);
      const status = v && v.status !== 'live' ? v.status : '';
      // body[data-venue] dims the counter and hides the beat dots and "▶ playing" (venue-notice.css).
      if (status) document.body.dataset.venue = status;
      else delete document.body.dataset.venue;
      let text = '';
      if (status === 'lost') {
        const at = timeOf(v?.since);
        text = at ? t('venue.lostSince', { time: at }) : t('venue.lost');
      } else if (status === 'none') {
        text = t('venue.none');
      }
      if (text === shown) return;
      shown = text;
      box.textContent = text;
      box.hidden = text === '';
      // Spoken once when it appears: a lost venue interrupts (assertive), "not started yet" does not.
      if (text) announcer().say(text, { urgent: status === 'lost' });
    },
  };
}
