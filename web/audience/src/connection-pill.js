// The connection indicator at the top of the page: a quality dot and one plain word for the
// audience ("live", "connecting…", "reconnecting…"); a tap reveals the technical details
// (transport, round trip, clock-sync bound: "WS · 2 ms · ±0.6 ms") for whoever is debugging.

import { t } from './i18n.js';
import { announcer } from './announcer.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const NAMES = { ws: 'WS', sse: 'SSE', poll: 'Poll' };

export function createConnectionPill() {
  const pill = $('conn');
  const word = $('conn-text');
  const details = $('conn-details');
  pill.addEventListener('click', () => {
    const open = pill.getAttribute('aria-expanded') !== 'true';
    pill.setAttribute('aria-expanded', String(open));
    details.hidden = !open;
  });
  /** Whether the page has been live: losing the connection after that (and getting it back) is spoken. */
  let wasLive = null;

  return {
    /** @param {{ transport: string | null, live: boolean, estimate: any, error: string }} s */
    render(s) {
      const e = s.estimate;
      const label = t(s.live ? 'conn.live' : s.transport ? 'conn.connecting' : 'conn.reconnecting');
      if (word.textContent !== label) word.textContent = label;
      const parts = [s.transport ? NAMES[s.transport] : t('conn.offline')];
      if (e) parts.push(`${Math.round(e.rtt)} ms`, `±${e.uncertainty < 10 ? e.uncertainty.toFixed(1) : Math.round(e.uncertainty)} ms`);
      if (s.error) parts.push(s.error);
      details.textContent = parts.join(' · ');
      pill.dataset.level = !s.live ? 'bad' : s.transport === 'ws' && e && e.quality === 'good' ? 'good' : 'fair';
      const spoken =
        s.live && e
          ? t('conn.details', { transport: t(`conn.${s.transport}`), rtt: Math.round(e.rtt), bound: Math.round(e.uncertainty) })
          : label;
      pill.setAttribute('aria-label', t('conn.label', { state: spoken }));
      if (wasLive !== null && s.live !== wasLive) announcer().say(t(s.live ? 'conn.back' : 'conn.lost'));
      if (s.live || wasLive !== null) wasLive = s.live;
    },
  };
}
