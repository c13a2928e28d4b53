// The connection indicator at the top of the page: a quality dot and one plain word for the
// audience ("live", "connecting…", "reconnecting…"); a tap reveals the technical details
// (transport, round trip, clock-sync bound: "WS · 2 ms · ±0.6 ms") for whoever is debugging.

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const NAMES = { ws: 'WS', sse: 'SSE', poll: 'Poll' };
const SPOKEN = { ws: 'WebSocket', sse: 'event stream', poll: 'polling' };

export function createConnectionPill() {
  const pill = $('conn');
  const word = $('conn-text');
  const details = $('conn-details');
  pill.addEventListener('click', () => {
    const open = pill.getAttribute('aria-expanded') !== 'true';
    pill.setAttribute('aria-expanded', String(open));
    details.hidden = !open;
  });

  return {
    /** @param {{ transport: string | null, live: boolean, estimate: any, error: string }} s */
    render(s) {
      const e = s.estimate;
      const label = s.live ? 'live' : s.transport ? 'connecting…' : 'reconnecting…';
      if (word.textContent !== label) word.textContent = label;
      const parts = [s.transport ? NAMES[s.transport] : 'offline'];
      if (e) parts.push(`${Math.round(e.rtt)} ms`, `±${e.uncertainty < 10 ? e.uncertainty.toFixed(1) : Math.round(e.uncertainty)} ms`);
      if (s.error) parts.push(s.error);
      details.textContent = parts.join(' · ');
      pill.dataset.level = !s.live ? 'bad' : s.transport === 'ws' && e && e.quality === 'good' ? 'good' : 'fair';
      const spoken = s.live && e ? `live; ${SPOKEN[s.transport]}, round trip ${Math.round(e.rtt)} milliseconds, clock sync within ${Math.round(e.uncertainty)} milliseconds` : label;
      pill.setAttribute('aria-label', `Connection: ${spoken}`);
    },
  };
}
