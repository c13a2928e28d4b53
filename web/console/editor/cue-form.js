// The form for the selected cue, prompt or reaction window. Every keystroke is an edit of the
// score document (one undo step per field while typing, history.js), validated at once by the
// validator `tutti validate` runs; the problems at this item are shown under the form in the
// very words `tutti validate` prints (core/score/format-problems.js). Numbers that do not read
// as numbers are kept as typed, so the validator, not this form, says what is wrong with them.

import { h, fill } from '../dom.js';
import { formatProblems } from '../../../core/score/format-problems.js';
import { problemsAt, pathOf, cueLabel } from './lanes.js';
import { setField } from './edits.js';
import { fieldsFor } from './cue-fields.js';

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   onCopy: (ref: import('./lanes.js').ItemRef) => void, onDelete: (ref: import('./lanes.js').ItemRef) => void,
 *   onMoveHere: (ref: import('./lanes.js').ItemRef) => void }} options
 */
export function createCueForm({ root, state, onCopy, onDelete, onMoveHere }) {
  let own = false; // the edit being rendered came from this form: keep the fields (and the caret)
  const problemEl = h('p', { class: 'ed-problem', role: 'alert', dataset: { testid: 'cue-problem' } });

  /** A typed value as the document should hold it. */
  const parse = (/** @type {string} */ raw, /** @type {string} */ type) => {
    if (type === 'number') return raw.trim() === '' ? undefined : Number.isFinite(Number(raw)) ? Number(raw) : raw;
    if (type === 'json') {
      try {
        return JSON.parse(raw);
      } catch {
        return raw; // the validator says what a list of arguments must be
      }
    }
    if (type === 'optional' || type === 'colour') return raw === '' ? undefined : raw;
    return raw;
  };

  function input(ref, field) {
    const id = `ed-f-${field.keys.join('-')}`;
    const current = field.keys.reduce((node, k) => node?.[k], state.doc()[ref.list][ref.index]);
    const shown = current === undefined ? '' : field.type === 'json' ? JSON.stringify(current) : String(current);
    const control =
      field.options !== undefined
        ? h(
            'select',
            { id },
            h('option', { value: '', text: '—' }),
            ...field.options.map((o) => h('option', { value: o, text: o, selected: o === current })),
          )
        : h('input', {
            id,
            type: 'text',
            value: shown,
            placeholder: field.placeholder,
            inputmode: field.type === 'number' ? 'decimal' : undefined,
            autocomplete: 'off',
          });
    const label = `${field.label} of ${cueLabel(state.doc()[ref.list][ref.index])}`;
    control.setAttribute('aria-describedby', 'ed-problem');
    control.dataset.testid = `field-${field.keys.join('.')}`;
    control.addEventListener(field.options !== undefined ? 'change' : 'input', () => {
      const value = parse(/** @type {HTMLInputElement} */ (control).value, field.type);
      own = true;
      try {
        state.edit(setField(state.doc(), ref, field.keys, value), `Edit ${label}`, { key: `${pathOf(ref)}.${field.keys.join('.')}` });
      } finally {
        own = false;
      }
    });
    const extra = field.type === 'colour' ? colourPicker(control, current) : null;
    return h('div', { class: 'ed-field' }, h('label', { for: id, text: field.label }), h('div', { class: 'ed-control' }, control, extra));
  }

  /** A colour well beside the typed colour: picking writes the text field (one source of truth). */
  function colourPicker(/** @type {HTMLElement} */ text, current) {
    const well = h('input', {
      type: 'color',
      'aria-label': 'Pick a colour',
      value: /^#[0-9a-f]{6}$/i.test(current ?? '') ? current : '#000000',
    });
    well.addEventListener('input', () => {
      /** @type {HTMLInputElement} */ (text).value = /** @type {HTMLInputElement} */ (well).value;
      text.dispatchEvent(new Event('input'));
    });
    return well;
  }

  function showProblems(ref) {
    const mine = ref ? problemsAt(state.problems(), ref) : [];
    problemEl.id = 'ed-problem';
    fill(problemEl, formatProblems(mine));
    problemEl.hidden = mine.length === 0;
  }

  function render() {
    const ref = state.selected();
    if (own) return showProblems(ref);
    const item = ref && state.doc()?.[ref.list]?.[ref.index];
    if (!ref || !item) {
      fill(root, h('p', { class: 'hint', text: 'Select a cue in a lane (or add one) to edit it here.' }));
      return undefined;
    }
    const fields = fieldsFor(ref.list, item, state.doc());
    const focused = document.activeElement?.id; // an undo rebuilds the fields: the caret stays in its field
    fill(
      root,
      h('h3', { class: 'ed-form-title', text: `${cueLabel(item)} · ${pathOf(ref)}` }),
      h('div', { class: 'ed-fields' }, ...fields.map((f) => input(ref, f))),
      problemEl,
      h(
        'div',
        { class: 'ed-actions' },
        h('button', {
          type: 'button',
          class: 'btn btn-small',
          text: 'Move to cursor',
          dataset: { testid: 'cue-move-here' },
          onclick: () => onMoveHere(ref),
        }),
        h('button', { type: 'button', class: 'btn btn-small', text: 'Copy to cursor', onclick: () => onCopy(ref) }),
        h('button', {
          type: 'button',
          class: 'btn btn-small',
          text: 'Delete',
          dataset: { testid: 'cue-delete' },
          onclick: () => onDelete(ref),
        }),
      ),
    );
    showProblems(ref);
    if (focused?.startsWith('ed-f-')) /** @type {HTMLElement | null} */ (root.querySelector(`#${focused}`))?.focus();
    return undefined;
  }

  return { render };
}
