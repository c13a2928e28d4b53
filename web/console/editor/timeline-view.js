// The piece as a timeline: a header of bars in performance order (printed numbers, sections,
// meter and tempo), then one lane per kind with a chip per cue, prompt or reaction window.
// The lanes and their chips are lane-view.js. A click on a bar puts the cursor (where cues are
// added, previewed and rehearsed from) on its first beat.
//
// The notation seam: the row under the bar numbers draws a bar grid. When the score's engraved
// pages exist (docs/reference/notation.md#notation-routes), `setNotation(draw)` hands each bar's
// cell to `draw(bar, cell)` to put the bar's measure there instead (notation-strip.js).

import { h, fill } from '../dom.js';
import { lanesOf, itemsOf } from './lanes.js';
import { createLaneView, BEAT_PX } from './lane-view.js';

export { BEAT_PX };

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   onMove: (ref: import('./lanes.js').ItemRef, byBeats: number) => void, onDelete: (ref: import('./lanes.js').ItemRef) => void,
 *   onCursor: (at: { bar: number, beat: number }) => void, cursor: () => { bar: number, beat: number } }} options
 */
export function createTimelineView({ root, state, onMove, onDelete, onCursor, cursor }) {
  /** @type {((bar: number, cell: HTMLElement) => void) | null} */
  let drawNotation = null;
  const { lane } = createLaneView({ state, onMove, onDelete });

  function header(map) {
    const width = map.totalBeats * BEAT_PX;
    const cell = (/** @type {any} */ b, /** @type {string} */ cls, /** @type {Node | string} */ content) => {
      const el = h('div', { class: cls }, content);
      el.style.left = `${b.start * BEAT_PX}px`;
      el.style.width = `${b.beats * BEAT_PX}px`;
      return el;
    };
    const row = (/** @type {string} */ title, /** @type {HTMLElement[]} */ cells, cls = '') => {
      const track = h('div', { class: `ed-track ${cls}` }, ...cells);
      track.style.width = `${width}px`;
      return h('div', { class: 'ed-row ed-head-row' }, h('div', { class: 'ed-lane-head' }, title), track);
    };
    const barButton = (/** @type {any} */ b) =>
      h('button', {
        type: 'button',
        class: 'ed-bar',
        text: String(b.bar),
        // The visible text comes first in the name (WCAG 2.5.3, label in name).
        'aria-label': `${b.bar}: bar ${b.bar}${b.printed ? `, printed ${b.printed}` : ''}, put the cursor here`,
        dataset: { bar: String(b.bar) },
        onclick: () => onCursor({ bar: b.bar, beat: 1 }),
      });
    const mark = (/** @type {any} */ b, /** @type {string} */ text) => {
      const el = cell(b, 'ed-cell ed-mark', text);
      el.style.width = ''; // a mark may run over the next bars: marks are sparse
      return el;
    };
    const grid = map.bars.map((b) => {
      const c = cell(b, 'ed-cell ed-grid-cell', '');
      drawNotation?.(b.bar, c);
      return c;
    });
    return [
      row(
        'Bar',
        map.bars.map((b) => cell(b, 'ed-cell', barButton(b))),
      ),
      ...(map.hasPrinted
        ? [
            row(
              'Printed (pass)',
              map.bars.map((b) => cell(b, 'ed-cell', b.short)),
            ),
          ]
        : []),
      row(
        'Sections',
        map.bars.filter((b) => b.section).map((b) => mark(b, b.section ?? '')),
      ),
      row(
        'Meter · tempo',
        map.bars.filter((b) => b.meter || b.tempo).map((b) => mark(b, [b.meter, b.tempo].filter(Boolean).join(' '))),
      ),
      row(drawNotation ? 'Notation' : 'Bar grid', grid, drawNotation ? 'ed-grid ed-notation' : 'ed-grid'),
    ];
  }

  function render() {
    const map = state.map();
    const doc = state.doc();
    if (!map || !doc) {
      fill(root, h('p', { class: 'hint', text: 'Load a score that passes `tutti validate` to edit it here.' }));
      return;
    }
    const problems = state.problems();
    const items = itemsOf(doc);
    const lanes = lanesOf(doc).map((l) =>
      lane(
        l,
        items.filter((it) => it.lane === l.id),
        map,
        problems,
      ),
    );
    const line = h('div', { class: 'ed-cursor', 'aria-hidden': 'true' });
    const c = cursor();
    line.style.left = `calc(var(--ed-head) + ${map.indexOf(c) * BEAT_PX}px)`;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.ref;
    fill(root, h('div', { class: 'ed-rows' }, ...header(map), ...lanes, line));
    // Keep the keyboard where it was after a re-render (a moved chip keeps its focus).
    if (focused) /** @type {HTMLElement | null} */ (root.querySelector(`[data-ref="${focused}"]`))?.focus();
  }

  return {
    render,
    /** @param {((bar: number, cell: HTMLElement) => void) | null} draw */
    setNotation(draw) {
      drawNotation = draw;
      render();
    },
  };
}
