// Score card, on screen: the loaded score's details and sections, the recent files, the result
// of a check (every problem with its JSON path, or "ready to load"), and the question before a
// load stops a running show. score-panel.js decides what to show and when.

import { $, basename, h, fill, duration } from './dom.js';

/** The card's elements, by role. */
export function scoreElements() {
  return {
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
}

/** @typedef {ReturnType<typeof scoreElements>} ScoreElements */

/**
 * The score's details (title, length, tempo, meter…) and its sections, each with a Jump button.
 * @param {ScoreElements} els
 * @param {any} score the score summary
 * @param {(bar: number, beat: number) => void} jump
 */
export function showScoreDetails(els, score, jump) {
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
  else fill(els.sectionList, ...score.sections.map((s) => sectionRow(s, () => jump(s.bar, s.beat))));
}

function sectionRow(s, onclick) {
  return h(
    'li',
    {},
    h('b', { text: s.mark }),
    h('span', { text: s.name ?? '' }),
    h('small', { text: `bar ${s.bar}${s.beat > 1 ? `.${s.beat}` : ''} · ${duration(s.atMs)}` }),
    h('button', { type: 'button', class: 'btn btn-small btn-ghost', text: 'Jump', title: `Jump to ${s.mark}`, onclick }),
  );
}

/**
 * The recent scores, each a button that checks and loads it.
 * @param {ScoreElements} els
 * @param {string[] | null | undefined} list
 * @param {(path: string) => void} pick
 */
export function showRecent(els, list, pick) {
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
          { type: 'button', title: `Check and load ${path}`, onclick: () => pick(path) },
          h('span', { text: basename(path) }),
          h('small', { text: path }),
        ),
      ),
    ),
  );
}

/**
 * A check's (or load's) result under the form; null hides it.
 * @param {ScoreElements} els
 * @param {{ ok: boolean, problems: Array<{ path: string, message: string }>, score?: any, file?: string } | null} result
 * @param {string} [verb]
 */
export function showCheckResult(els, result, verb = 'checked') {
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

/**
 * Ask before interrupting a running show; resolves true to go ahead.
 * @param {ScoreElements} els
 * @param {() => boolean} isPlaying
 * @returns {Promise<boolean>}
 */
export function confirmStop(els, isPlaying) {
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
