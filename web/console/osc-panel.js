// Musicians over OSC: each target with its mode (plain: sent when it sounds, ahead: timetagged
// bundle sent early), its latency offset (both editable), messages sent, send errors, the test
// ping and, when the target echoes /tutti/ping, its round trip; and the OSC-in port.
// docs/how-to/connect-osc-tools.md#on-time-in-every-receiver.

import { $, h, fill, setText, clockTime } from './dom.js';

const MODE_TITLES = {
  plain: 'Plain messages sent when each beat sounds: on time in every receiver (Pd, Max, node-osc, liblo, SuperCollider, Sonic Pi)',
  ahead:
    'Bundles timetagged with the beat’s time, sent ~300 ms early: only for receivers that schedule by timetag (liblo, scsynth, ChucK, Csound, a Pd patch with [unpackOSC] → [pipelist], an sclang OSCdef that schedules on its time argument); Pd vanilla’s [oscparse], Max and an sclang OSCdef that acts at once would play them early; never for Sonic Pi 3, whose OSC stops at the first bundle',
};

/** @param {{ api: any }} deps */
export function createOscPanel({ api }) {
  const list = $('osc-list');
  const form = $('osc-form');
  const host = /** @type {HTMLInputElement} */ ($('osc-host'));
  const port = /** @type {HTMLInputElement} */ ($('osc-port'));
  const mode = /** @type {HTMLSelectElement} */ ($('osc-mode'));
  const error = $('osc-error');
  let current = { targets: [], in: null };
  /** @type {Map<string, { li: HTMLElement, mode: HTMLSelectElement, offset: HTMLInputElement, sub: HTMLElement }>} rows kept across renders, so a field being edited survives the once-a-second update */
  const rows = new Map();

  const report = (err) => setText(error, err ? err.message : '');
  const keyOf = (t) => `${t.host}:${t.port}`;
  const nameOf = (t) => `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;

  async function change(target, body) {
    try {
      render(await api.patch('/api/osc/targets', { host: target.host, port: target.port, ...body }));
      report(null);
    } catch (err) {
      report(err);
      render(current); // put the field back to what the server has
    }
  }

  function makeRow(t) {
    const modeSelect = /** @type {HTMLSelectElement} */ (
      h(
        'select',
        {
          class: 'field-inline',
          'aria-label': `Mode of ${nameOf(t)}`,
          dataset: { testid: 'osc-target-mode' },
          onchange: () => change(t, { mode: modeSelect.value }),
        },
        h('option', { value: 'plain', text: 'plain' }),
        h('option', { value: 'ahead', text: 'ahead' }),
      )
    );
    const offset = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'number',
        class: 'field-inline field-offset',
        min: '-250',
        max: '250',
        step: '1',
        'aria-label': `Offset of ${nameOf(t)} in ms`,
        title: 'Latency offset in ms: negative sends earlier (a 20 ms audio buffer: -20), positive later',
        dataset: { testid: 'osc-target-offset' },
        onchange: () => {
          const value = Number(offset.value);
          if (offset.value.trim() === '' || !Number.isFinite(value)) return render(current);
          change(t, { offsetMs: value });
        },
      })
    );
    const sub = h('span', { class: 'row-sub' });
    const li = h(
      'li',
      { class: 'row', dataset: { target: keyOf(t) } },
      h('span', { class: 'row-title', text: nameOf(t) }),
      h(
        'span',
        { class: 'row-actions' },
        modeSelect,
        h('label', { class: 'field-inline-label' }, offset, ' ms'),
        h('button', {
          type: 'button',
          class: 'btn btn-small',
          text: 'Test',
          title: 'Send /tutti/ping to this target (a receiver that echoes it shows the round trip)',
          dataset: { testid: 'osc-test' },
          onclick: () => test(t),
        }),
        h('button', { type: 'button', class: 'btn btn-small btn-ghost', text: 'Remove', onclick: () => remove(t) }),
      ),
      sub,
    );
    return { li, mode: modeSelect, offset, sub };
  }

  function update(row, t) {
    // A field the operator is typing in keeps what they type.
    if (document.activeElement !== row.mode) row.mode.value = t.mode ?? 'plain';
    row.mode.title = MODE_TITLES[t.mode] ?? '';
    if (document.activeElement !== row.offset) row.offset.value = String(t.offsetMs ?? 0);
    const ping = t.lastPing;
    const rtt = t.rtt ? `round trip ${t.rtt.ms.toFixed(1)} ms (${clockTime(t.rtt.at)})` : null;
    fill(
      row.sub,
      `${t.sent} sent · ${t.errors} errors`,
      t.lastError ? h('span', { class: 'bad', text: ` · last error: ${t.lastError}` }) : null,
      // A mode that goes wrong in the receiver on that port (the server's osc-target.js targetWarning).
      t.warning ? h('span', { class: 'bad', dataset: { testid: 'osc-warning' }, text: ` · ${t.warning}` }) : null,
      ping
        ? h('span', {
            class: ping.ok ? 'ok' : 'bad',
            text: ` · ping ${ping.ok ? 'sent' : 'failed'} ${clockTime(ping.at)}${ping.error ? ` (${ping.error})` : ''}`,
          })
        : null,
      rtt
        ? h('span', { class: 'ok', dataset: { testid: 'osc-rtt' }, text: ` · ${rtt}` })
        : ping?.ok
          ? h('span', { text: ' · no echo' })
          : null,
    );
  }

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
      const row = rows.get(keyOf(t)) ?? makeRow(t);
      rows.set(keyOf(t), row);
      update(row, t);
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
