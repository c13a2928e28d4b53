// One OSC target's row in the Musicians card (osc-panel.js): its mode and latency offset fields,
// Test and Remove, and the line of figures under it (sent, errors, ping, round trip, warning).
// docs/how-to/connect-osc-tools.md#on-time-in-every-receiver.

import { h, fill, clockTime } from './dom.js';

const MODE_TITLES = {
  plain: 'Plain messages sent when each beat sounds: on time in every receiver (Pd, Max, node-osc, liblo, SuperCollider, Sonic Pi)',
  ahead:
    'Bundles timetagged with the beat’s time, sent ~300 ms early: only for receivers that schedule by timetag (liblo, scsynth, ChucK, Csound, a Pd patch with [unpackOSC] → [pipelist], an sclang OSCdef that schedules on its time argument); Pd vanilla’s [oscparse], Max and an sclang OSCdef that acts at once would play them early; never for Sonic Pi 3, whose OSC stops at the first bundle',
};

/** @param {{ host: string, port: number }} t the key rows are kept under */
export const keyOf = (t) => `${t.host}:${t.port}`;
const nameOf = (t) => `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;

/**
 * @typedef {object} OscRowActions
 * @property {(target: any, body: any) => void} change send a new mode or offset
 * @property {(target: any) => void} test send the test ping
 * @property {(target: any) => void} remove
 * @property {() => void} revert put the fields back to what the server has
 *
 * @typedef {{ li: HTMLElement, mode: HTMLSelectElement, offset: HTMLInputElement, sub: HTMLElement }} OscTargetRow
 */

/**
 * One target's row: its mode and offset fields (each change sent at once), Test and Remove.
 * @param {{ host: string, port: number }} t
 * @param {OscRowActions} actions
 */
export function createOscTargetRow(t, { change, test, remove, revert }) {
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
        if (offset.value.trim() === '' || !Number.isFinite(value)) return revert();
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

/**
 * Refresh a row from the server's figures for its target (sent, errors, ping, round trip).
 * @param {OscTargetRow} row
 * @param {any} t
 */
export function updateOscTargetRow(row, t) {
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
