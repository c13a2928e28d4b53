// Transport card, commands: play/pause (with the optional count-in), stop, jump to a bar (running
// or printed) or section, tempo override. Each is one call to the control API; the answer is the
// new status, and an error shows in the card for a few seconds.

import { $, setText } from './dom.js';
import { barOfPrinted } from '../../core/score/printed-bars.js';
import { sectionIndexAt } from './transport-view.js';

/**
 * @param {object} deps
 * @param {ReturnType<typeof import('./api.js').createApi>} deps.api
 * @param {import('./transport-view.js').TransportElements} deps.els
 * @param {import('./transport-view.js').TransportState} deps.state
 * @param {() => void} deps.renderState
 * @param {(next: any) => void} deps.setStatus
 */
export function createTransportCommands({ api, els, state, renderState, setStatus }) {
  let errorTimer = null;

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

  const post = (action, extra = {}) => api.post('/api/transport', { action, ...extra });
  const seek = (bar, beat = 1) => run(() => post('seek', { bar, beat }));

  function togglePlay() {
    if (state.status.transport === 'playing') return run(() => post('pause'));
    if (state.counting) return undefined;
    if (els.countToggle.checked) {
      state.counting = { n: null, of: state.status.position?.beats ?? null };
      renderState();
      return run(async () => {
        try {
          return await api.post('/api/console/count-in', {});
        } catch (err) {
          state.counting = null;
          renderState();
          throw err;
        }
      });
    }
    return run(() => post('play'));
  }

  function stop() {
    return run(async () => {
      if (state.counting) await api.del('/api/console/count-in');
      state.counting = null;
      return post('stop');
    });
  }

  function setTempo(bpm) {
    return run(() => api.post('/api/tempo', { bpm }));
  }

  function tempoStep(delta) {
    if (state.status.tempo === null) return undefined;
    return setTempo(Math.round((Number(state.status.tempo) + delta) * 2) / 2);
  }

  function sectionStep(delta) {
    const list = state.score?.sections ?? [];
    if (!list.length) return undefined;
    const i = sectionIndexAt(list, state.shown);
    const target = list[Math.max(0, Math.min(list.length - 1, (i === -1 && delta > 0 ? -1 : i) + delta))];
    return seek(target.bar, target.beat);
  }

  /** The jump form: a printed bar when one is typed and the score has them, else the running bar. */
  function jump() {
    const { score } = state;
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
  }

  els.play.addEventListener('click', () => togglePlay());
  els.stop.addEventListener('click', () => stop());
  els.countToggle.addEventListener('change', renderState);
  els.jumpForm.addEventListener('submit', (e) => {
    e.preventDefault();
    jump();
  });
  els.tempoForm.addEventListener('submit', (e) => {
    e.preventDefault();
    setTempo(Number(els.tempoInput.value));
  });
  $('tempo-reset').addEventListener('click', () => setTempo(null));
  $('tempo-up').addEventListener('click', () => tempoStep(1));
  $('tempo-down').addEventListener('click', () => tempoStep(-1));

  return { seek, togglePlay, stop, tempoStep, sectionStep };
}
