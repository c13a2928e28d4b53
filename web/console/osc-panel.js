// Musicians over OSC: targets (add, remove, test ping with its result, send errors) and the
// OSC-in port.

import { $, h, fill, setText, clockTime } from './dom.js';

/** @param {{ api: any }} deps */
export function createOscPanel({ api }) {
  const list = $('osc-list');
  const form = $('osc-form');
  const host = /** @type {HTMLInputElement} */ ($('osc-host'));
  const port = /** @type {HTMLInputElement} */ ($('osc-port'));
  const error = $('osc-error');
  let current = { targets: [], in: null };

  const report = (err) => setText(error, err ? err.message : '');

  function render(osc) {
    if (!osc) return;
    current = osc;
    const tag = $('osc-in');
    setText(tag, osc.in ? `OSC in: udp ${osc.in}` : 'OSC in: off');
    tag.title = osc.in ? `Remote control: /tutti/play, /pause, /stop, /seek bar beat, /tempo bpm on UDP port ${osc.in}` : 'Start with --osc-in PORT (or oscInPort in settings) to accept remote control';
    if (osc.targets.length === 0) {
      fill(list, h('li', { class: 'empty', text: 'No targets yet. Add each musician’s machine (host and UDP port): it receives /tutti/beat, /tutti/transport and the score’s cues.' }));
      return;
    }
    fill(list, ...osc.targets.map((t) => {
      const name = `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;
      const ping = t.lastPing;
      return h('li', { class: 'row', dataset: { target: `${t.host}:${t.port}` } },
        h('span', { class: 'row-title', text: name }),
        h('span', { class: 'row-actions' },
          h('button', { type: 'button', class: 'btn btn-small', text: 'Test', title: 'Send /tutti/ping to this target', dataset: { testid: 'osc-test' }, onclick: () => test(t) }),
          h('button', { type: 'button', class: 'btn btn-small btn-ghost', text: 'Remove', onclick: () => remove(t) })),
        h('span', { class: 'row-sub' },
          `${t.sent} sent · ${t.errors} errors`,
          t.lastError ? h('span', { class: 'bad', text: ` · last error: ${t.lastError}` }) : null,
          ping ? h('span', { class: ping.ok ? 'ok' : 'bad', text: ` · ping ${ping.ok ? 'sent' : 'failed'} ${clockTime(ping.at)}${ping.error ? ` (${ping.error})` : ''}` }) : null));
    }));
  }

  async function test(target) {
    try {
      const result = await api.post('/api/osc/ping', { host: target.host, port: target.port });
      render({ ...current, targets: current.targets.map((t) => (t.host === target.host && t.port === target.port ? { ...t, lastPing: result } : t)) });
      report(null);
    } catch (err) {
      report(err);
    }
  }

  async function remove(target) {
    try {
      render(await api.del('/api/osc/targets', { host: target.host, port: target.port }));
      report(null);
    } catch (err) {
      report(err);
    }
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const address = host.value.trim().replace(/^\[(.*)\]$/, '$1');
    try {
      render(await api.post('/api/osc/targets', { host: address, port: Number(port.value) }));
      host.value = '';
      port.value = '';
      report(null);
    } catch (err) {
      report(err);
    }
  });

  return { render };
}
