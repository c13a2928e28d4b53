// The edge mirror: switch it on (URL + publish token) or off; its link status, lag, remote
// viewers; and the local overflow threshold (--max-clients) that sends viewers to it.

import { $, h, fill, setText } from './dom.js';
import { edgeMediaText } from './edge-media-text.js';

/**
 * What the edge tells remote viewers about the show (its /healthz), in words.
 * @param {{ status: string, since: number | null, error: string | null }} venue
 */
function venueText({ status, since, error }) {
  const at = since ? ` since ${new Date(since).toLocaleTimeString()}` : '';
  if (status === 'live') return `the show, live${at}`;
  if (status === 'lost') return `"the venue is offline"${at}`;
  if (status === 'none') return '"the show has not started yet"';
  return error ? `unknown (${error})` : 'checking…';
}

/** @param {{ api: any }} deps */
export function createEdgePanel({ api }) {
  const form = $('edge-form');
  const url = /** @type {HTMLInputElement} */ ($('edge-url'));
  const token = /** @type {HTMLInputElement} */ ($('edge-token'));
  const error = $('edge-error');
  const report = (err) => setText(error, err ? err.message : '');

  function render(edge) {
    if (!edge) return;
    const tag = $('edge-state');
    const replaced = edge.enabled && edge.state === 'replaced';
    const state = !edge.enabled ? 'off' : replaced ? 'replaced' : edge.connected ? 'connected' : 'connecting';
    setText(tag, state);
    tag.className = `tag ${state === 'connected' ? 'tag-ok' : state === 'connecting' ? 'tag-warn' : replaced ? 'tag-bad' : ''}`;
    // Two venues with one token would take the show from each other: this one stopped (docs/reference/control-api.md#endpoints).
    $('edge-replaced').hidden = !replaced;
    if (replaced) {
      const at = edge.replacedAt ? new Date(edge.replacedAt).toLocaleTimeString() : 'just now';
      setText(
        $('edge-replaced-text'),
        `Stopped publishing at ${at}: another venue server connected to this edge with the same token. Remote viewers now follow that one. Stop it first, then publish from here again.`,
      );
    }
    if (edge.enabled && document.activeElement !== url && edge.publicUrl) url.value = edge.publicUrl;
    /** @type {HTMLButtonElement} */ ($('edge-off')).disabled = !edge.enabled;
    const rows = [
      [
        'Link',
        edge.enabled
          ? replaced
            ? 'replaced by another venue server — not retrying'
            : edge.connected
              ? 'connected'
              : 'not connected — retrying'
          : 'off',
      ],
      [
        'Lag',
        edge.enabled ? (edge.lag === null || edge.lag === undefined ? '—' : `${edge.lag} update${edge.lag === 1 ? '' : 's'} behind`) : '—',
      ],
      [
        'Remote viewers',
        edge.enabled && edge.remoteViewers !== null && edge.remoteViewers !== undefined ? String(edge.remoteViewers) : '—',
      ],
      ['Reconnects', edge.enabled ? String(edge.reconnects ?? 0) : '—'],
      [
        'Overflow',
        edge.maxClients
          ? `beyond ${edge.maxClients} local viewers, new ones go ${edge.enabled ? 'to the edge' : 'away (503) until the edge is on'}`
          : 'no local cap (--max-clients not set)',
      ],
    ];
    if (edge.enabled && edge.venue) rows.push(['Remote viewers see', venueText(edge.venue)]);
    if (edge.enabled && edge.media) rows.push(['Media', edgeMediaText(edge)]);
    if (edge.enabled && edge.lastError) rows.push(['Last error', edge.lastError]);
    fill($('edge-meta'), ...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]));
  }

  /** Run one edge API call: show the status it returns, or what went wrong. */
  const act = async (call) => {
    try {
      render(await call());
      report(null);
    } catch (err) {
      report(err);
    }
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!url.value.trim() || !token.value) {
      report(new Error('Give the edge URL and its publish token.'));
      return;
    }
    await act(async () => {
      const status = await api.post('/api/edge', { url: url.value.trim(), token: token.value });
      token.value = '';
      return status;
    });
  });
  $('edge-off').addEventListener('click', () => act(() => api.del('/api/edge')));
  $('edge-resume').addEventListener('click', () => act(() => api.post('/api/edge/resume')));

  return {
    render,
    /** Pre-fill the URL from settings without switching anything on. */
    suggest(value) {
      if (value && !url.value) url.value = value;
    },
  };
}
