// The piece as a timeline: a header of bars in performance order (printed numbers, sections,
// meter and tempo), then one lane per kind with a chip per cue, prompt or reaction window.
// Chips are buttons: click or Enter selects, drag moves by whole beats, Alt+←/→ moves a beat,
// Alt+Shift+←/→ a bar, Delete removes. A click on a bar puts the cursor (where cues are added,
// previewed and rehearsed from) on its first beat.
//
// The notation seam: the row under the bar numbers draws a bar grid. When the score's engraved
// pages exist (SPEC §10, GET /part/<key>/notation/all.json), `setNotation(draw)` hands each bar's
// cell to `draw(bar, cell)` to put the bar's image there instead.

import { h, fill } from '../dom.js';
import { lanesOf, itemsOf, problemsAt } from './lanes.js';

/** Width of one beat on screen, px. */
export const BEAT_PX = 16;
const CHIP_PX = 120;
const DRAG_START_PX = 4;

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   onMove: (ref: import('./lanes.js').ItemRef, byBeats: number) => void, onDelete: (ref: import('./lanes.js').ItemRef) => void,
 *   onCursor: (at: { bar: number, beat: number }) => void, cursor: () => { bar: number, beat: number } }} options
 */
export function createTimelineView({ root, state, onMove, onDelete, onCursor, cursor }) {
  /** @type {((bar: number, cell: HTMLElement) => void) | null} */
  let drawNotation = null;

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
      row(drawNotation ? 'Notation' : 'Bar grid', grid, 'ed-grid'),
    ];
  }

  function chip(item, map, problems) {
    const at = map.positionOf(map.indexOf(item.at));
    const ref = { list: item.list, index: item.index };
    const sel = state.selected();
    const bad = problemsAt(problems, ref).length > 0;
    const where = `bar ${at.bar} beat ${at.beat}${map.printedOf(at.bar) ? `, printed ${map.printedOf(at.bar)}` : ''}`;
    const el = h('button', {
      type: 'button',
      class: `ed-chip${bad ? ' ed-bad' : ''}`,
      text: item.label,
      'aria-pressed': String(Boolean(sel && sel.list === ref.list && sel.index === ref.index)),
      'aria-label': `${item.label} at ${where}${bad ? ' (has a problem)' : ''}`,
      title: `${item.label} · ${where}`,
      dataset: { ref: `${ref.list}:${ref.index}`, testid: 'cue-chip' },
    });
    el.style.left = `${map.indexOf(item.at) * BEAT_PX}px`;
    const span = item.until ? map.indexOf(item.until) - map.indexOf(item.at) : item.beats;
    if (span) el.style.width = `${Math.max(BEAT_PX, span * BEAT_PX)}px`;
    el.addEventListener('click', () => state.select(ref));
    el.addEventListener('keydown', (e) => keyOnChip(e, ref, map));
    draggable(el, ref);
    return el;
  }

  function keyOnChip(/** @type {KeyboardEvent} */ e, ref, map) {
    if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      const at = map.positionOf(map.indexOf(state.doc()[ref.list][ref.index].at));
      const beats = e.shiftKey ? map.bars[at.bar - 1].beats : 1;
      onMove(ref, e.key === 'ArrowLeft' ? -beats : beats);
    } else if (e.key === 'Delete' || e.key === 'Backspace') onDelete(ref);
    else return;
    e.preventDefault();
  }

  /** Drag by whole beats; a press without movement stays a click. */
  function draggable(/** @type {HTMLElement} */ el, ref) {
    el.addEventListener('pointerdown', (down) => {
      if (down.button !== 0) return;
      const x0 = down.clientX;
      let moved = false;
      const move = (/** @type {PointerEvent} */ e) => {
        const dx = e.clientX - x0;
        if (!moved && Math.abs(dx) < DRAG_START_PX) return;
        if (!moved) el.setPointerCapture(down.pointerId);
        moved = true;
        el.style.transform = `translateX(${Math.round(dx / BEAT_PX) * BEAT_PX}px)`;
      };
      const up = (/** @type {PointerEvent} */ e) => {
        el.removeEventListener('pointermove', move);
        el.removeEventListener('pointerup', up);
        if (!moved) return;
        el.style.transform = '';
        const beats = Math.round((e.clientX - x0) / BEAT_PX);
        if (beats !== 0) onMove(ref, beats);
        el.addEventListener('click', (c) => c.stopImmediatePropagation(), { capture: true, once: true });
      };
      el.addEventListener('pointermove', move);
      el.addEventListener('pointerup', up);
    });
  }

  function lane(laneInfo, items, map, problems) {
    const chips = items.map((item) => chip(item, map, problems));
    // Chips that would overlap go on the next line of the lane.
    const ends = /** @type {number[]} */ ([]);
    chips.forEach((el, i) => {
      const left = map.indexOf(items[i].at) * BEAT_PX;
      let slot = ends.findIndex((end) => end <= left);
      if (slot < 0) slot = ends.push(0) - 1;
      ends[slot] = left + Math.max(CHIP_PX, parseFloat(el.style.width) || 0);
      el.style.top = `${slot * 28 + 2}px`;
    });
    const track = h('div', { class: 'ed-track ed-lane', role: 'group', 'aria-label': laneInfo.title }, ...chips);
    track.style.width = `${map.totalBeats * BEAT_PX}px`;
    track.style.height = `${Math.max(1, ends.length) * 28 + 4}px`;
    return h('div', { class: 'ed-row', dataset: { lane: laneInfo.id } }, h('div', { class: 'ed-lane-head' }, laneInfo.title), track);
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
