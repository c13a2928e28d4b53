// Transport: the live bar:beat (shown when each beat sounds, not when it arrives), play/pause/
// stop, count-in, jump to bar or section, tempo override. This file keeps the state and the
// timing of the live feed; transport-view.js draws the card, transport-commands.js sends the
// commands.

import { createTransportView, transportElements } from './transport-view.js';
import { createTransportCommands } from './transport-commands.js';

/**
 * @param {{ api: ReturnType<typeof import('./api.js').createApi>, clock: ReturnType<typeof import('./server-clock.js').createServerClock> }} deps
 */
export function createTransportPanel({ api, clock }) {
  const position = { bar: 1, beat: 1, beats: 4, index: 0 };
  /** @type {import('./transport-view.js').TransportState} */
  const state = {
    score: null,
    status: { transport: 'stopped', position, tempo: null, tempoOverride: false, countIn: null },
    counting: null,
    shown: position,
  };
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const pending = new Set();
  let flashTimer = null;

  const els = transportElements();
  const view = createTransportView(els, state);
  const { renderState, showPosition } = view;
  const commands = createTransportCommands({ api, els, state, renderState, setStatus });

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
    const was = state.status.transport;
    state.status = { ...state.status, ...next };
    if (next.countIn === null && state.counting) state.counting = null;
    if (state.status.transport !== 'playing') {
      clearPending();
      if (next.position) showPosition(next.position);
    } else if (was !== 'playing' && next.position && pending.size === 0) {
      showPosition(next.position);
    }
    renderState();
  }

  function onBeat(beat) {
    at(beat.at, () => {
      if (state.status.transport !== 'playing') return;
      state.status.tempo = beat.bpm;
      showPosition(beat);
      renderState();
      els.root.classList.add('beat-flash');
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => els.root.classList.remove('beat-flash'), 120);
    });
  }

  function onCountIn(event) {
    if (event.cancelled) {
      state.counting = null;
      renderState();
      return;
    }
    at(event.at, () => {
      state.counting = { n: event.n, of: event.of };
      view.showCountIn(event.n, event.of);
      renderState();
    });
  }

  function setScore(summary) {
    state.score = summary;
    view.showScore(summary, commands.seek);
  }

  renderState();
  return {
    setScore,
    setStatus,
    onBeat,
    onCountIn,
    togglePlay: commands.togglePlay,
    stop: commands.stop,
    tempoStep: commands.tempoStep,
    sectionStep: commands.sectionStep,
    focusJump: () => {
      els.jumpBar.focus();
      els.jumpBar.select();
    },
    status: () => state.status,
  };
}
