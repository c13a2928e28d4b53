// Musicians over OSC: each target with its mode (plain: sent when it sounds, ahead: timetagged
// bundle sent early), its latency offset (both editable), messages sent, send errors, the test
// ping and, when the target echoes /tutti/ping, its round trip; and the OSC-in port.
// docs/how-to/connect-osc-tools.md#on-time-in-every-receiver. Each target's row: osc-target-row.js.

import { $, h, fill, setText } from './dom.js';
import { createOscTargetRow, keyOf, updateOscTargetRow } from './osc-target-row.js';

/** @param {{ api: any }} deps */
export function createOscPanel({ api }) {
  const list = $('osc-list');
  const form = $('osc-form');
  const host = /** @type {HTMLInputElement} */ ($('osc-host'));
  const port = /** @type {HTMLInputElement} */ ($('osc-port'));
  const mode = /** @type {HTMLSelectElement} */ ($('osc-mode'));
  const error = $('osc-error');
  let current = { targets: [], in: null };
  /** @type {Map<string, import('./osc-target-row.js').OscTargetRow>} rows kept across renders, so a field being edited survives the once-a-second update */
  const rows = new Map();

  const report = (err) => setText(error, err ? err.message : '');

  async function change(target, body) {
    try {
      render(await api.patch('/api/osc/targets', { host: target.host, port: target.port, ...body }));
      report(null);
    } catch (err) {
      report(err);
      render(current); // put the field back to what the server has
    }
  }

  const actions = { change, test, remove, revert: () => render(current) };

  function render(osc) {
    if (!osc) return;
    current = osc;
    const tag = $('osc-in');
    setText(tag, osc.in ? `OSC in: udp ${osc.in}` : 'OSC in: off');
    tag.title = osc.in
      ? `Remote control: /tutti/play, /pause, /stop, /seek bar beat, /tempo bpm on UDP port ${osc.in}`
      : 'Start with --osc-in PORT (or oscInPort in settings) to accept remote control';
    if (osc.targets.length === 0) {
      rows.clear();
      fill(
        list,
        h('li', {
          class: 'empty',
          text: 'No targets yet. Add each musician’s machine (host and UDP port): it receives /tutti/beat, /tutti/transport and the score’s cues, each when it sounds.',
        }),
      );
      return;
    }
    const keys = osc.targets.map(keyOf);
    for (const k of [...rows.keys()]) if (!keys.includes(k)) rows.delete(k);
    const ordered = osc.targets.map((t) => {
      const row = rows.get(keyOf(t)) ?? createOscTargetRow(t, actions);
      rows.set(keyOf(t), row);
      updateOscTargetRow(row, t);
      return row.li;
    });
    const same = ordered.length === list.children.length && ordered.every((li, i) => list.children[i] === li);
    if (!same) fill(list, ...ordered);
  }

  async function test(target) {
    try {
      const result = await api.post('/api/osc/ping', { host: target.host, port: target.port });
      render({
        ...current,
        targets: current.targets.map((t) =>
          keyOf(t) === keyOf(target)
            ? { ...t, lastPing: result, rtt: result.rttMs !== null ? { ms: result.rttMs, at: result.at } : t.rtt }
            : t,
        ),
      });
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
      render(await api.post('/api/osc/targets', { host: address, port: Number(port.value), mode: mode.value }));
      host.value = '';
      port.value = '';
      report(null);
    } catch (err) {
      report(err);
    }
  });

  return { render };
}
