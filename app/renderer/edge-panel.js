// The edge mirror: switch it on (URL + publish token) or off; its link status, lag, remote
// viewers; and the local overflow threshold (--max-clients) that sends viewers to it.

import { $, h, fill, setText } from './dom.js';
import { edgeMediaText } from './edge-media-text.js';

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
    const state = !edge.enabled ? 'off' : edge.connected ? 'connected' : 'connecting';
    setText(tag, state);
    tag.className = `tag ${state === 'connected' ? 'tag-ok' : state === 'connecting' ? 'tag-warn' : ''}`;
    if (edge.enabled && document.activeElement !== url && edge.publicUrl) url.value = edge.publicUrl;
    /** @type {HTMLButtonElement} */ ($('edge-off')).disabled = !edge.enabled;
    const rows = [
      ['Link', edge.enabled ? (edge.connected ? 'connected' : 'not connected — retrying') : 'off'],
      ['Lag', edge.enabled ? (edge.lag === null || edge.lag === undefined ? '—' : `${edge.lag} update${edge.lag === 1 ? '' : 's'} behind`) : '—'],
      ['Remote viewers', edge.enabled && edge.remoteViewers !== null && edge.remoteViewers !== undefined ? String(edge.remoteViewers) : '—'],
      ['Reconnects', edge.enabled ? String(edge.reconnects ?? 0) : '—'],
      ['Overflow', edge.maxClients ? `beyond ${edge.maxClients} local viewers, new ones go ${edge.enabled ? 'to the edge' : 'away (503) until the edge is on'}` : 'no local cap (--max-clients not set)'],
    ];
    if (edge.enabled && edge.media) rows.push(['Media', edgeMediaText(edge)]);
    if (edge.enabled && edge.lastError) rows.push(['Last error', edge.lastError]);
    fill($('edge-meta'), ...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!url.value.trim() || !token.value) {
      report(new Error('Give the edge URL and its publish token.'));
      return;
    }
    try {
      render(await api.post('/api/edge', { url: url.value.trim(), token: token.value }));
      token.value = '';
      report(null);
    } catch (err) {
      report(err);
    }
  });
  $('edge-off').addEventListener('click', async () => {
    try {
      render(await api.del('/api/edge'));
      report(null);
    } catch (err) {
      report(err);
    }
  });

  return {
    render,
    /** Pre-fill the URL from settings without switching anything on. */
    suggest(value) {
      if (value && !url.value) url.value = value;
    },
  };
}
