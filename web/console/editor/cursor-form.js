// The cursor's place, typed: a bar and beat in performance order, or a printed bar as the parts
// print it ("17", or "17, 2" for the second time through). New cues go there, the phone preview
// shows it, and "Rehearse from here" starts there.

import { h, setText } from '../dom.js';

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>, onCursor: (at: { bar: number, beat: number }) => void }} options
 */
export function createCursorForm({ root, state, onCursor }) {
  const field = (/** @type {string} */ id, /** @type {string} */ label, props = {}) => {
    const input = /** @type {HTMLInputElement} */ (
      h('input', { id, type: 'text', inputmode: 'numeric', size: 5, autocomplete: 'off', ...props })
    );
    return { input, el: h('label', { class: 'field-sm', for: id }, `${label} `, input) };
  };
  const bar = field('ed-at-bar', 'Bar', { dataset: { testid: 'ed-at-bar' } });
  const beat = field('ed-at-beat', 'Beat', { dataset: { testid: 'ed-at-beat' } });
  const printed = field('ed-at-printed', 'Printed bar', { placeholder: '17, 2', dataset: { testid: 'ed-at-printed' } });
  const note = h('span', { class: 'hint', role: 'status', id: 'ed-at-note' });
  const form = h(
    'form',
    { class: 'inline-form', autocomplete: 'off', 'aria-label': 'Cursor' },
    bar.el,
    beat.el,
    printed.el,
    h('button', { type: 'submit', class: 'btn btn-small', text: 'Go' }),
    note,
  );
  root.append(form);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const map = state.map();
    if (!map) return;
    setText(note, '');
    const typed = printed.input.value.trim();
    if (typed) {
      const [number, pass] = typed.split(/[\s,]+/).map(Number);
      const found = Number.isInteger(number) ? map.barOfPrinted(number, Number.isInteger(pass) ? pass : undefined) : undefined;
      if (found === undefined) return setText(note, `Printed bar ${typed} is not in this piece.`);
      printed.input.value = '';
      return onCursor({ bar: found, beat: Number(beat.input.value) || 1 });
    }
    const b = Number(bar.input.value);
    if (!Number.isInteger(b) || b < 1 || b > map.bars.length) return setText(note, `Type a bar from 1 to ${map.bars.length}.`);
    return onCursor({ bar: b, beat: Number(beat.input.value) || 1 });
  });

  return {
    /** @param {{ bar: number, beat: number }} at */
    show(at) {
      bar.input.value = String(at.bar);
      beat.input.value = String(at.beat);
      const b = state.map()?.bars[at.bar - 1];
      printed.input.placeholder = b?.short ? b.short.replace(/ \((\d+)\)$/, ', $1') : '17, 2';
    },
  };
}
