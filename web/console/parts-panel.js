// Musicians' part pages (docs/how-to/part-pages.md#part-pages): the second QR code — the musicians' URL with
// its key, never the audience's — and the part pages open now: which part, clock-sync quality
// (the round trip and bound each page reports), transport, click, last seen; the score's parts
// without a tablet are listed too, so the composer sees the band is ready before pressing Play.
// "New key" replaces the key (docs/reference/part-key.md): a second click within a few seconds
// confirms, as the old address stops working for every tablet at once.

import { $, h, fill, setText } from './dom.js';

const REFRESH_MS = 2000;
/** How long "New key" waits for its confirming second click. */
const CONFIRM_MS = 4000;
/** A page whose clock bound is wider than this shows a warning: its beats may be that far off. */
const BOUND_OK_MS = 5;

const ago = (ms) => (ms < 2000 ? 'just now' : ms < 120_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`);
const fixed = (x) => (x < 10 ? x.toFixed(1) : String(Math.round(x)));

/** @param {{ api: any }} deps */
export function createPartsPanel({ api }) {
  const qr = /** @type {HTMLImageElement} */ ($('parts-qr'));
  const link = /** @type {HTMLAnchorElement} */ ($('parts-url'));

  function sync(page) {
    if (page.bound === null || page.rtt === null) return { level: 'fair', text: 'clock not synced yet' };
    const text = `±${fixed(page.bound)} ms · round trip ${fixed(page.rtt)} ms · ${(page.transport ?? '—').toUpperCase()}`;
    return { level: page.bound <= BOUND_OK_MS ? 'ok' : 'fair', text };
  }

  function render(data) {
    if (link.href !== data.url) {
      link.href = data.url;
      setText(link, data.url);
    }
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.qrSvg)}`;
    if (qr.src !== src) qr.src = src;
    const warning = $('parts-warning');
    warning.hidden = data.onLan;
    setText(
      warning,
      data.onLan ? '' : 'Only this machine can open it: the audience listener is not on the venue network (start with --host 0.0.0.0).',
    );

    const live = data.pages.filter((p) => !p.gone);
    const covered = new Set(live.map((p) => p.part));
    const ready = data.parts.filter((p) => covered.has(p.id)).length;
    const tag = $('parts-state');
    setText(tag, data.parts.length ? `${ready} of ${data.parts.length} parts ready` : `${live.length} open`);
    tag.className = `tag ${data.parts.length && ready === data.parts.length ? 'tag-ok' : ''}`;

    const rows = data.pages.map((p) => {
      const s = sync(p);
      return h(
        'li',
        { class: `part-row ${p.gone ? 'gone' : s.level}`, dataset: { part: p.part } },
        h('span', { class: 'part-dot', 'aria-hidden': 'true' }),
        h('span', { class: 'part-name', text: p.partName ?? `${p.part} (not in this score)` }),
        h('span', { class: 'part-sync', text: p.gone ? 'gone' : s.text }),
        h('span', { class: 'part-click', text: p.click ? 'click on' : '' }),
        h('span', { class: 'part-seen', text: `${p.address} · ${ago(p.ago)}` }),
      );
    });
    const missing = data.parts
      .filter((p) => !covered.has(p.id))
      .map((p) =>
        h(
          'li',
          { class: 'part-row missing', dataset: { part: p.id } },
          h('span', { class: 'part-dot', 'aria-hidden': 'true' }),
          h('span', { class: 'part-name', text: p.name }),
          h('span', { class: 'part-sync', text: 'no tablet yet' }),
        ),
      );
    if (rows.length + missing.length === 0)
      fill($('parts-list'), h('li', { class: 'empty', text: 'No part page open. This score has no parts: musicians pick "All parts".' }));
    else fill($('parts-list'), ...rows, ...missing);
  }

  async function refresh() {
    try {
      render(await api.get('/api/parts'));
      setText($('parts-error'), '');
    } catch (err) {
      setText($('parts-error'), err.message);
    }
    setTimeout(refresh, REFRESH_MS);
  }
  refresh();

  const rotate = $('rotate-parts-key');
  /** @type {ReturnType<typeof setTimeout> | null} */
  let armed = null;
  const disarm = () => {
    if (armed) clearTimeout(armed);
    armed = null;
    setText(rotate, 'New key');
  };
  rotate.addEventListener('click', async () => {
    if (!armed) {
      setText(rotate, 'Replace? Click again');
      armed = setTimeout(disarm, CONFIRM_MS);
      return;
    }
    disarm();
    try {
      await api.post('/api/parts/key');
      render(await api.get('/api/parts'));
      setText($('parts-error'), 'New key: the old address no longer works; the musicians scan this code.');
    } catch (err) {
      setText($('parts-error'), err.message);
    }
  });

  $('copy-parts-url').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(link.href);
      setText($('copy-parts-url'), 'Copied');
    } catch {
      setText($('copy-parts-url'), 'Copy failed');
    }
    setTimeout(() => setText($('copy-parts-url'), 'Copy'), 1500);
  });
}
