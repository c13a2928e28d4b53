// Score: open a file (typed path, recent list, or the desktop app's Open dialog), see every
// problem with its JSON path before anything plays, then load; metadata and sections. A MusicXML
// or MIDI file is imported instead (import-preview.js), and the score it writes is checked and
// loaded like any other. score-view.js draws the card.

import { setText } from './dom.js';
import { confirmStop, scoreElements, showCheckResult, showRecent, showScoreDetails } from './score-view.js';
import { createImportPreview } from './import-preview.js';
import { notationText } from './notation-status.js';

/** Files the server imports rather than loads (local-server/src/import/import-file.js). */
const NOTATION = /\.(musicxml|xml|mxl|mid|midi)$/i;

/**
 * @param {{ api: any, bridge: any, isPlaying: () => boolean, jump: (bar: number, beat: number) => void }} deps
 */
export function createScorePanel({ api, bridge, isPlaying, jump }) {
  const els = scoreElements();
  let busy = false;

  /** @param {{ ok: boolean, problems: Array<{ path: string, message: string }>, score?: any, file?: string } | null} result */
  const showResult = (result, verb = 'checked') => showCheckResult(els, result, verb);

  function setScore(score) {
    setText(els.title, score.title);
    setText(els.composer, score.composer ?? '');
    document.title = `${score.title} — Tutti`;
    showScoreDetails(els, score, jump);
    if (!els.path.value && score.path) els.path.value = score.path;
  }

  function setRecent(list) {
    showRecent(els, list, (path) => {
      els.path.value = path;
      load(path);
    });
  }

  function setBusy(on) {
    busy = on;
    for (const b of [els.check, els.load, els.browse]) /** @type {HTMLButtonElement} */ (b).disabled = on;
  }

  const importPreview = createImportPreview({
    api,
    box: els.problems,
    setBusy,
    showResult,
    saved: (scorePath) => {
      els.path.value = scorePath;
      return load(scorePath);
    },
  });

  async function validate(path) {
    const result = await api.post('/api/score/validate', { path });
    showResult(result);
    return result;
  }

  async function check(path = els.path.value.trim()) {
    if (!path || busy) return null;
    if (NOTATION.test(path)) return importPreview(path);
    setBusy(true);
    try {
      return await validate(path);
    } catch (err) {
      showResult({ ok: false, problems: [{ path: '(request)', message: err.message }] });
      return null;
    } finally {
      setBusy(false);
    }
  }

  /** Check first; load only a score without problems, and only after confirming a stop. */
  async function load(path = els.path.value.trim()) {
    if (!path || busy) return;
    if (NOTATION.test(path)) return importPreview(path);
    setBusy(true);
    try {
      const result = await validate(path);
      if (!result.ok) return;
      if (!(await confirmStop(els, isPlaying))) return;
      await api.post('/api/score', { path: result.file });
      els.path.value = result.file;
      showResult(result, 'loaded');
    } catch (err) {
      showResult({ ok: false, problems: err.problems?.length ? err.problems : [{ path: '(request)', message: err.message }] });
    } finally {
      setBusy(false);
    }
  }

  async function browse() {
    if (!bridge) return;
    const picked = await bridge.openScoreDialog();
    if (picked) {
      els.path.value = picked;
      await load(picked);
    }
  }

  els.form.addEventListener('submit', (e) => {
    e.preventDefault();
    load();
  });
  els.check.addEventListener('click', () => check());
  if (bridge) {
    els.browse.hidden = false;
    els.browse.addEventListener('click', () => browse());
  }

  return {
    setScore,
    setRecent,
    setLastAttempt(attempt) {
      if (attempt && !attempt.ok) showResult(attempt);
    },
    load,
    browse,
    /** @param {Parameters<typeof notationText>[0]} notation the engraving's progress (/api/status `notation`) */
    setNotation(notation) {
      const text = notationText(notation);
      els.notation.hidden = !text;
      els.notation.dataset.state = notation?.state ?? 'none';
      setText(els.notation, text);
    },
  };
}
