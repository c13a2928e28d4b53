// Transport card, drawing only: the bar:beat and its dots, the section, the progress bar and its
// section marks, the play button's label and the tempo. It reads the panel's shared state
// (transport-panel.js) and never talks to the server.

import { $, h, fill, setText } from './dom.js';
import { printedBarLabel } from '../../core/score/printed-bars.js';

/**
 * @typedef {object} TransportState what the card shows, shared by the panel's parts
 * @property {any} score the score summary (bars, sections, printedBars, totalBeats) or null
 * @property {any} status the last transport status (transport, position, tempo, tempoOverride, countIn)
 * @property {{ n: number | null, of: number | null } | null} counting the count-in under way
 * @property {any} shown the position on screen
 */

/** The card's elements, by role. */
export function transportElements() {
  return {
    root: /** @type {HTMLElement} */ ($('pos-bar').closest('.card')),
    state: $('transport-state'),
    bar: $('pos-bar'),
    beat: $('pos-beat'),
    dots: $('beat-dots'),
    section: $('pos-section'),
    tempo: $('pos-tempo'),
    override: $('tempo-override'),
    countState: $('countin-state'),
    fill: $('progress-fill'),
    marks: $('progress-marks'),
    play: $('btn-play'),
    playIcon: $('play-icon'),
    playLabel: $('play-label'),
    stop: $('btn-stop'),
    countToggle: /** @type {HTMLInputElement} */ ($('countin-toggle')),
    jumpForm: $('jump-form'),
    jumpBar: /** @type {HTMLInputElement} */ ($('jump-bar')),
    jumpBeat: /** @type {HTMLInputElement} */ ($('jump-beat')),
    printed: $('pos-printed'),
    jumpPrinted: /** @type {HTMLInputElement} */ ($('jump-printed')),
    jumpPrintedField: $('jump-printed-field'),
    sections: $('section-buttons'),
    tempoForm: $('tempo-form'),
    tempoInput: /** @type {HTMLInputElement} */ ($('tempo-input')),
    error: $('transport-error'),
  };
}

/** @typedef {ReturnType<typeof transportElements>} TransportElements */

/**
 * The index of the last section starting at or before `pos` (-1: before the first).
 * @param {Array<{ bar: number, beat: number }>} sections
 * @param {{ bar: number, beat: number }} pos
 */
export function sectionIndexAt(sections, pos) {
  let found = -1;
  sections.forEach((s, i) => {
    if (s.bar < pos.bar || (s.bar === pos.bar && s.beat <= pos.beat)) found = i;
  });
  return found;
}

/**
 * @param {TransportElements} els
 * @param {TransportState} state
 */
export function createTransportView(els, state) {
  const sections = () => state.score?.sections ?? [];

  function showPosition(pos) {
    const { score, status } = state;
    state.shown = pos;
    setText(els.bar, pos.bar);
    const printed = printedBarLabel(score?.printedBars ?? undefined, pos.bar, score?.bars);
    els.printed.hidden = !printed;
    setText(els.printed, printed ? `printed ${printed}` : '');
    setText(els.beat, pos.beat);
    const beats = pos.beats ?? 4;
    if (els.dots.childElementCount !== beats)
      fill(els.dots, ...Array.from({ length: beats }, (_, i) => h('span', { class: i === 0 ? 'beat-dot first' : 'beat-dot' })));
    [...els.dots.children].forEach((dot, i) => {
      dot.classList.toggle('on', status.transport === 'playing' && i === pos.beat - 1);
      dot.classList.remove('counting');
    });
    const i = sectionIndexAt(sections(), pos);
    const current = i >= 0 ? sections()[i] : null;
    setText(els.section, current ? `${current.mark}${current.name ? ` · ${current.name}` : ''}` : '—');
    [...els.sections.children].forEach((b, k) => b.classList.toggle('current', k === i));
    if (score?.totalBeats) els.fill.style.setProperty('width', `${Math.min(100, ((pos.index ?? 0) / score.totalBeats) * 100).toFixed(2)}%`);
  }

  function renderState() {
    const { status, counting } = state;
    const label = counting
      ? 'Counting in'
      : ({ playing: 'Playing', paused: 'Paused', stopped: 'Stopped' }[status.transport] ?? status.transport);
    setText(els.state, label);
    els.state.className = `pill pill-${counting ? 'counting' : status.transport}`;
    const playing = status.transport === 'playing';
    els.root.classList.toggle('playing', playing);
    setText(els.playLabel, playing ? 'Pause' : counting ? 'Counting…' : status.transport === 'paused' ? 'Resume' : 'Play');
    els.playIcon.className = `icon ${playing ? 'icon-pause' : 'icon-play'}`;
    if (status.tempo !== null) setText(els.tempo, Number(status.tempo).toFixed(status.tempo % 1 ? 1 : 0));
    els.override.hidden = !status.tempoOverride;
    if (document.activeElement !== els.tempoInput && status.tempo !== null) els.tempoInput.value = String(status.tempo);
    setText(
      els.countState,
      counting ? `${counting.n ?? '…'} of ${counting.of ?? '…'}` : els.countToggle.checked ? 'one bar before play' : 'off',
    );
  }

  /** The count-in's dots: the first `n` of `of` lit. */
  function showCountIn(n, of) {
    if (els.dots.childElementCount !== of) fill(els.dots, ...Array.from({ length: of }, () => h('span', { class: 'beat-dot' })));
    [...els.dots.children].forEach((dot, i) => dot.classList.toggle('counting', i < n));
  }

  /**
   * A new score: the section buttons (each seeks to its section) and the progress bar's marks.
   * @param {any} summary
   * @param {(bar: number, beat: number) => void} seek
   */
  function showScore(summary, seek) {
    els.jumpBar.max = String(summary.bars);
    els.jumpPrintedField.hidden = !summary.printedBars;
    els.jumpBar.required = !summary.printedBars;
    fill(els.sections, ...summary.sections.map((s) => sectionButton(s, () => seek(s.bar, s.beat))));
    fill(
      els.marks,
      ...summary.sections.map((s) => {
        const mark = h('div', { class: 'progress-mark', title: `${s.mark} · bar ${s.bar}` }, h('span', { text: s.mark }));
        mark.style.setProperty('left', `${(((s.bar - 1) / summary.bars) * 100).toFixed(2)}%`);
        return mark;
      }),
    );
    showPosition(state.shown);
  }

  return { showPosition, renderState, showCountIn, showScore };
}

function sectionButton(s, onclick) {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn btn-small section-btn',
      title: `Jump to ${s.mark}${s.name ? ` (${s.name})` : ''}, bar ${s.bar}`,
      onclick,
    },
    h('b', { text: s.mark }),
    s.name ? h('span', { text: s.name }) : null,
    h('small', { text: `bar ${s.bar}` }),
  );
}
