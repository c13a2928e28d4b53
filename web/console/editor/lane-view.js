// One lane of the timeline: a chip per cue, prompt or reaction window at its beat (a window as
// wide as it lasts). Chips are buttons: click or Enter selects, drag moves by whole beats,
// Alt+←/→ moves a beat, Alt+Shift+←/→ a bar, Delete removes. Chips that would overlap go on the
// lane's next line.

import { h } from '../dom.js';
import { problemsAt } from './lanes.js';

/** Width of one beat on screen, px. */
export const BEAT_PX = 16;
const CHIP_PX = 120;
const DRAG_START_PX = 4;

/**
 * @param {{ state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   onMove: (ref: import('./lanes.js').ItemRef, byBeats: number) => void, onDelete: (ref: import('./lanes.js').ItemRef) => void }} options
 */
export function createLaneView({ state, onMove, onDelete }) {
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

  return { lane };
}
