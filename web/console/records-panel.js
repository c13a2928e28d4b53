// Past performances (docs/how-to/record-and-replay.md#the-performance-record): the records this server wrote — date,
// score, duration, size — and each one's report, fetched with the token and saved as one offline
// HTML file (the console's strict CSP would block the report's inline style if it were opened
// from here, so it is handed to the browser as a download).

import { $, h, fill, setText, duration, clockTime } from './dom.js';

const REFRESH_MS = 30_000;

/** @param {{ api: any, onReplay?: (record: { id: string }) => void }} deps onReplay: play a record back in the console (replay-panel.js) */
export function createRecordsPanel({ api, onReplay }) {
  const list = $('records-list');
  const error = $('records-error');

  async function openReport(record) {
    setText(error, '');
    try {
      const res = await fetch(`/api/records/${encodeURIComponent(record.id)}/report`, {
        headers: { authorization: `Bearer ${api.token}`, 'x-tutti-client': 'console' },
        cache: 'no-store',
      });
      if (!res.ok) throw new Error((await res.json().catch(() => null))?.message ?? `HTTP ${res.status}`);
      const url = URL.createObjectURL(await res.blob());
      const a = h('a', { href: url, download: `tutti-report-${record.id}.html` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setText(error, `Could not make the report of ${record.id}: ${err.message}`);
    }
  }

  function render(data) {
    setText($('records-state'), data.dir ? `${data.records.length}` : 'off');
    if (!data.dir) {
      fill(list, h('li', { class: 'hint', text: 'This server records nothing (--no-record).' }));
      return;
    }
    if (!data.records.length) {
      fill(list, h('li', { class: 'hint', text: 'No performance recorded yet.' }));
      return;
    }
    fill(
      list,
      ...data.records.map((r) =>
        h(
          'li',
          { class: 'row', 'data-record': r.id },
          h('span', {
            class: 'grow',
            text: `${new Date(r.startedAt).toLocaleDateString()} ${clockTime(r.startedAt)} · ${r.score?.title ?? '?'} · ${duration(r.durationMs)}${r.endedAt ? '' : ' · no clean stop'}${r.resumes ? ` · resumed ${r.resumes}×` : ''}`,
          }),
          h(
            'span',
            { class: 'record-actions' },
            onReplay && h('button', { type: 'button', class: 'btn btn-small', text: 'Replay', onclick: () => onReplay(r) }),
            h('button', { type: 'button', class: 'btn btn-small', text: 'Report', onclick: () => openReport(r) }),
          ),
        ),
      ),
    );
  }

  async function refresh() {
    try {
      render(await api.get('/api/records'));
    } catch (err) {
      setText(error, `Could not list the records: ${err.message}`);
    }
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
  return { refresh };
}
