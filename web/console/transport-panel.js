// Transport: the live bar:beat (shown when each beat sounds, not when it arrives), play/pause/
// stop, count-in, jump to bar or section, tempo override.

import { $, h, fill, setText } from './dom.js';
import { barOfPrinted, printedBarLabel } from '../../core/score/printed-bars.js';

/**
 * @param {{ api: ReturnType<typeof import('./api.js').createApi>, clock: ReturnType<typeof import('./server-clock.js').createServerClock> }} deps
 */
export function createTransportPanel({ api, clock }) {
  /** @type {any} */
  let score = null;
  /** @type {any} */
  let status = {
    transport: 'stopped',
    position: { bar: 1, beat: 1, beats: 4, index: 0 },
    tempo: null,
    tempoOverride: false,
    countIn: null,
  };
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const pending = new Set();
  let counting = null;
  let shown = status.position;
  let flashTimer = null;
  let errorTimer = null;

  const els = {
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

  function report(err) {
    setText(els.error, err ? err.message : '');
    clearTimeout(errorTimer);
    if (err) errorTimer = setTimeout(() => setText(els.error, ''), 6000);
  }

  async function run(action) {
    try {
      const next = await action();
      if (next && next.transport) setStatus(next);
      report(null);
    } catch (err) {
      report(err);
    }
  }

  const sections = () => score?.sections ?? [];
  const before = (a, b) => a.bar < b.bar || (a.bar === b.bar && a.beat <= b.beat);
  function sectionIndexAt(pos) {
    let found = -1;
    sections().forEach((s, i) => {
      if (before(s, pos)) found = i;
    });
    return found;
  }

  function showPosition(pos) {
    shown = pos;
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
    const i = sectionIndexAt(pos);
    const current = i >= 0 ? sections()[i] : null;
    setText(els.section, current ? `${current.mark}${current.name ? ` · ${current.name}` : ''}` : '—');
    [...els.sections.children].forEach((b, k) => b.classList.toggle('current', k === i));
    if (score?.totalBeats) els.fill.style.setProperty('width', `${Math.min(100, ((pos.index ?? 0) / score.totalBeats) * 100).toFixed(2)}%`);
  }

  function renderState() {
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

  function clearPending() {
    for (const t of pending) clearTimeout(t);
    pending.clear();
  }

  /** Something that sounds at server time `at`: run it then. */
  function at(time, fn) {
    const t = setTimeout(
      () => {
        pending.delete(t);
        fn();
      },
      Math.max(0, clock.until(time)),
    );
    pending.add(t);
  }

  function setStatus(next) {
    const was = status.transport;
    status = { ...status, ...next };
    if (next.countIn === null && counting) counting = null;
    if (status.transport !== 'playing') {
      clearPending();
      if (next.position) showPosition(next.position);
    } else if (was !== 'playing' && next.position && pending.size === 0) {
      showPosition(next.position);
    }
    renderState();
  }

  function onBeat(beat) {
    at(beat.at, () => {
      if (status.transport !== 'playing') return;
      status.tempo = beat.bpm;
      showPosition(beat);
      renderState();
      els.root.classList.add('beat-flash');
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => els.root.classList.remove('beat-flash'), 120);
    });
  }

  function onCountIn(event) {
    if (event.cancelled) {
      counting = null;
      renderState();
      return;
    }
    at(event.at, () => {
      counting = { n: event.n, of: event.of };
      if (els.dots.childElementCount !== event.of)
        fill(els.dots, ...Array.from({ length: event.of }, () => h('span', { class: 'beat-dot' })));
      [...els.dots.children].forEach((dot, i) => dot.classList.toggle('counting', i < event.n));
      renderState();
    });
  }

  function setScore(summary) {
    score = summary;
    els.jumpBar.max = String(summary.bars);
    els.jumpPrintedField.hidden = !summary.printedBars;
    els.jumpBar.required = !summary.printedBars;
    fill(
      els.sections,
      ...summary.sections.map((s) =>
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-small section-btn',
            title: `Jump to ${s.mark}${s.name ? ` (${s.name})` : ''}, bar ${s.bar}`,
            onclick: () => seek(s.bar, s.beat),
          },
          h('b', { text: s.mark }),
          s.name ? h('span', { text: s.name }) : null,
          h('small', { text: `bar ${s.bar}` }),
        ),
      ),
    );
    fill(
      els.marks,
      ...summary.sections.map((s) => {
        const mark = h('div', { class: 'progress-mark', title: `${s.mark} · bar ${s.bar}` }, h('span', { text: s.mark }));
        mark.style.setProperty('left', `${(((s.bar - 1) / summary.bars) * 100).toFixed(2)}%`);
        return mark;
      }),
    );
    showPosition(shown);
  }

  const post = (action, extra = {}) => api.post('/api/transport', { action, ...extra });
  const seek = (bar, beat = 1) => run(() => post('seek', { bar, beat }));

  function togglePlay() {
    if (status.transport === 'playing') return run(() => post('pause'));
    if (counting) return undefined;
    if (els.countToggle.checked) {
      counting = { n: null, of: status.position?.beats ?? null };
      renderState();
      return run(async () => {
        try {
          return await api.post('/api/console/count-in', {});
        } catch (err) {
          counting = null;
          renderState();
          throw err;
        }
      });
    }
    return run(() => post('play'));
  }

  function stop() {
    return run(async () => {
      if (counting) await api.del('/api/console/count-in');
      counting = null;
      return post('stop');
    });
  }

  function setTempo(bpm) {
    return run(() => api.post('/api/tempo', { bpm }));
  }

  els.play.addEventListener('click', () => togglePlay());
  els.stop.addEventListener('click', () => stop());
  els.countToggle.addEventListener('change', renderState);
  els.jumpForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const beat = els.jumpBeat.value ? Number(els.jumpBeat.value) : 1;
    const printed = els.jumpPrinted.value.trim();
    if (printed && score?.printedBars) {
      // "17" = the first time printed bar 17 sounds, "17, 2" (or "17/2", "17 2") = the second time.
      const [number, pass] = printed
        .split(/[\s,./]+/)
        .filter(Boolean)
        .map(Number);
      const bar = barOfPrinted(score.printedBars, number, pass, score.bars);
      if (bar === undefined) return report(new Error(`printed bar ${printed} is not in this score`));
      els.jumpPrinted.value = ''; // the next jump may be by running bar again
      return seek(bar, beat);
    }
    seek(Number(els.jumpBar.value), beat);
  });
  els.tempoForm.addEventListener('submit', (e) => {
    e.preventDefault();
    setTempo(Number(els.tempoInput.value));
  });
  $('tempo-reset').addEventListener('click', () => setTempo(null));
  $('tempo-up').addEventListener('click', () => tempoStep(1));
  $('tempo-down').addEventListener('click', () => tempoStep(-1));

  function tempoStep(delta) {
    if (status.tempo === null) return undefined;
    return setTempo(Math.round((Number(status.tempo) + delta) * 2) / 2);
  }

  function sectionStep(delta) {
    const list = sections();
    if (!list.length) return undefined;
    const i = sectionIndexAt(shown);
    const target = list[Math.max(0, Math.min(list.length - 1, (i === -1 && delta > 0 ? -1 : i) + delta))];
    return seek(target.bar, target.beat);
  }

  renderState();
  return {
    setScore,
    setStatus,
    onBeat,
    onCountIn,
    togglePlay,
    stop,
    tempoStep,
    sectionStep,
    focusJump: () => {
      els.jumpBar.focus();
      els.jumpBar.select();
    },
    status: () => status,
  };
}
