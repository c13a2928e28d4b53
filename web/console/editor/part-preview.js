// "Also preview a part page there": a tablet-sized frame showing a musician's part page at the
// cursor's bar and beat, drawn by the part page's own view code (part-main.js runs
// web/audience/part/part-view.js and notation-view.js): bar:beat, the countdown to the picked
// part's next cue and what it says, the cues after it, and the engraved part with its cursor when
// the score has notation. The cue table is made from the editor's document, edits included, by
// the same core module the server sends part pages (core/score/part-cues.js).

import { h } from '../dom.js';
import { partCueTable } from '../../../core/score/part-cues.js';

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   base: () => string | null }} options `base`: the part pages' keyed URL on this listener
 *   (/console/part/<key>/, local-server/src/console/console-part-notation.js), null when unknown
 */
export function createPartPreview({ root, state, base }) {
  const picker = /** @type {HTMLSelectElement} */ (h('select', { id: 'ed-part-pick', dataset: { testid: 'ed-part-pick' } }));
  const frame = /** @type {HTMLIFrameElement} */ (
    h('iframe', {
      class: 'ed-tablet',
      title: 'Part page preview: the picked part at the cursor',
      src: '/console/editor/part.html',
      dataset: { testid: 'part-preview' },
    })
  );
  root.append(h('label', { class: 'field-sm', for: 'ed-part-pick' }, 'Part ', picker), h('div', { class: 'ed-tablet-wrap' }, frame));
  /** @type {{ score: any, table: ReturnType<typeof partCueTable> } | null} */
  let cached = null;
  /** @type {{ bar: number, beat: number } | null} */
  let pending = null;

  const tableOf = (/** @type {any} */ score) => {
    if (cached?.score !== score) cached = { score, table: partCueTable(score) };
    return cached.table;
  };

  /** The picker lists the score's parts and "All parts", keeping the choice while it exists. */
  function listParts(/** @type {ReturnType<typeof partCueTable>} */ table) {
    const ids = [...table.parts.map((p) => p.id), '*'];
    if ([...picker.options].map((o) => o.value).join('\n') === ids.join('\n')) return;
    const was = picker.value;
    picker.replaceChildren(
      ...table.parts.map((p) => h('option', { value: p.id, text: p.name })),
      h('option', { value: '*', text: 'All parts' }),
    );
    picker.value = ids.includes(was) ? was : ids[0];
  }

  function draw() {
    const part = /** @type {any} */ (frame.contentWindow)?.tuttiPart;
    const score = state.good();
    const map = state.map();
    if (!score || !map) return;
    const table = tableOf(score);
    listParts(table);
    if (!part || !pending) return;
    const index = map.indexOf(pending);
    const pos = map.positionOf(index);
    part.show({ base: base(), table, part: picker.value, at: { index, bar: pos.bar, beat: pos.beat, beats: map.bars[pos.bar - 1].beats } });
  }
  picker.addEventListener('change', draw);
  frame.addEventListener('load', () => {
    const win = /** @type {any} */ (frame.contentWindow);
    if (win?.tuttiPart) draw();
    else win?.addEventListener('tutti-part-ready', draw, { once: true });
  });

  return {
    /** Show the part page at a place (the editor's cursor). @param {{ bar: number, beat: number }} at */
    show(at) {
      pending = at;
      draw();
    },
  };
}
