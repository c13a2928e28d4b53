// Score: open a file (typed path, recent list, or the desktop app's Open dialog), see every
// problem with its JSON path before anything plays, then load; metadata and sections. A MusicXML
// or MIDI file is imported instead (import-preview.js), and the score it writes is checked and
// loaded like any other.

import { $, basename, h, fill, setText, duration } from './dom.js';
import { createImportPreview } from './import-preview.js';
import { notationText } from './notation-status.js';

/** Files the server imports rather than loads (local-server/src/import/import-file.js). */
const NOTATION = /\.(musicxml|xml|mxl|mid|midi)$/i;

/**
 * @param {{ api: any, bridge: any, isPlaying: () => boolean, jump: (bar: number, beat: number) => void }} deps
 */
export function createScorePanel({ api, bridge, isPlaying, jump }) {
  const els = {
    meta: $('score-meta'),
    ok: $('score-ok'),
    form: $('score-form'),
    path: /** @type {HTMLInputElement} */ ($('score-path')),
    browse: $('btn-browse'),
    check: $('btn-check'),
    load: $('btn-load'),
    problems: $('score-problems'),
    confirm: $('score-confirm'),
    recent: $('recent-list'),
    sectionList: $('section-list'),
    title: $('top-title'),
    composer: $('top-composer'),
    notation: $('score-notation'),
  };
  let busy = false;

  function setScore(score) {
    setText(els.title, score.title);
    setText(els.composer, score.composer ?? '');
    document.title = `${score.title} — Tutti`;
    // The printed signature, and the beats it is counted in when not its own (6/8 in 2).
    const meter = score.meter
      .map((m) => `${m.beats}/${m.unit}${m.count ? ` in ${m.count}` : ''}${score.meter.length > 1 ? ` (bar ${m.bar})` : ''}`)
      .join(', ');
    const rows = [
      ['Title', h('span', { class: 'score-title', text: score.title })],
      ['Composer', score.composer ?? '—'],
      [
        'Length',
        `${score.bars} bars${score.printedBars ? ' (repeats played out; printed bar numbers kept)' : ''} · ${duration(score.durationMs)} at the written tempo`,
      ],
      ['Tempo', `${score.tempo} bpm`],
      ['Meter', meter],
      ['Sections', score.sections.length ? score.sections.map((s) => s.mark).join(' · ') : 'none'],
      ['Cues', String(score.cues)],
      ['File', h('span', { class: 'path', text: score.path ?? '—' })],
    ];
    fill(els.meta, ...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', {}, v)]));
    if (score.sections.length === 0) fill(els.sectionList, h('li', { class: 'empty', text: 'This score has no sections.' }));
    else {
      fill(
        els.sectionList,
        ...score.sections.map((s) =>
          h(
            'li',
            {},
            h('b', { text: s.mark }),
            h('span', { text: s.name ?? '' }),
            h('small', { text: `bar ${s.bar}${s.beat > 1 ? `.${s.beat}` : ''} · ${duration(s.atMs)}` }),
            h('button', {
              type: 'button',
              class: 'btn btn-small btn-ghost',
              text: 'Jump',
              title: `Jump to ${s.mark}`,
              onclick: () => jump(s.bar, s.beat),
            }),
          ),
        ),
      );
    }
    if (!els.path.value && score.path) els.path.value = score.path;
  }

  function setRecent(list) {
    if (!list || list.length === 0) {
      fill(els.recent, h('li', { class: 'empty', text: 'Scores you load appear here.' }));
      return;
    }
    fill(
      els.recent,
      ...list.map((path) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              title: `Check and load ${path}`,
              onclick: () => {
                els.path.value = path;
                load(path);
              },
            },
            h('span', { text: basename(path) }),
            h('small', { text: path }),
          ),
        ),
      ),
    );
  }

  /** @param {{ ok: boolean, problems: Array<{ path: string, message: string }>, score?: any, file?: string } | null} result */
  function showResult(result, verb = 'checked') {
    if (!result) {
      els.problems.hidden = true;
      return;
    }
    els.problems.hidden = false;
    if (result.ok) {
      els.problems.className = 'problems ok';
      const s = result.score;
      fill(
        els.problems,
        h('h4', { text: verb === 'loaded' ? `✓ Loaded “${s.title}”` : `✓ “${s.title}” is ready to load` }),
        h('div', { class: 'hint', text: `${s.bars} bars · ${duration(s.durationMs)} · ${s.sections.length} sections · ${s.cues} cues` }),
      );
      return;
    }
    els.problems.className = 'problems';
    const n = result.problems.length;
    fill(
      els.problems,
      h('h4', { text: `✗ ${n} problem${n === 1 ? '' : 's'} in ${basename(result.file ?? els.path.value)} — nothing was loaded` }),
      h(
        'ol',
        {},
        ...result.problems.map((p) => h('li', {}, h('span', { class: 'problem-path', text: p.path }), h('span', { text: p.message }))),
      ),
    );
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

  /** Ask before interrupting a running show; resolves true to go ahead. */
  function confirmStop() {
    if (!isPlaying()) return Promise.resolve(true);
    els.confirm.hidden = false;
    return new Promise((resolve) => {
      const done = (answer) => {
        els.confirm.hidden = true;
        $('confirm-load').removeEventListener('click', yes);
        $('cancel-load').removeEventListener('click', no);
        resolve(answer);
      };
      const yes = () => done(true);
      const no = () => done(false);
      $('confirm-load').addEventListener('click', yes);
      $('cancel-load').addEventListener('click', no);
    });
  }

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
      if (!(await confirmStop())) return;
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
