// The editor's state: the score document with its undo history, the file revision it came
// from, what is selected, and the document's problems by the validator `tutti validate` runs
// (core/score/validate.js, the same module, served to the console as it is). The bar grid is
// drawn from the last document that validated, so a half-typed cue never makes the bars vanish.

import { validateScore } from '../../../core/score/validate.js';
import { createHistory } from './history.js';
import { createPieceMap } from './piece-map.js';

/** @typedef {import('./lanes.js').ItemRef} ItemRef */

export function createEditorState() {
  const history = createHistory(/** @type {any} */ (null));
  /** @type {Set<(why: string) => void>} */
  const listeners = new Set();
  let revision = '';
  let savedJson = 'null';
  /** @type {ItemRef | null} */
  let selected = null;
  /** @type {Array<{ path: string, message: string }>} */
  let problems = [];
  /** @type {any} the last document that validated, normalized */
  let good = null;
  /** @type {ReturnType<typeof createPieceMap> | null} */
  let map = null;

  function check() {
    const result = validateScore(history.current());
    problems = result.problems;
    if (result.ok) {
      good = result.score;
      // The time map changes only with bars, meter, tempo, sections or printed bars.
      if (!map || timeKey(result.score) !== timeKey(map.source))
        map = Object.assign(createPieceMap(result.score), { source: result.score });
    }
  }
  const changed = (/** @type {string} */ why) => listeners.forEach((fn) => fn(why));

  return {
    doc: () => history.current(),
    revision: () => revision,
    problems: () => problems,
    /** The last valid normalized score (cues sorted, positions explicit) and its piece map. */
    good: () => good,
    map: () => map,
    selected: () => selected,
    dirty: () => JSON.stringify(history.current()) !== savedJson,
    next: () => history.next(),
    /** @param {(why: string) => void} fn */
    subscribe(fn) {
      listeners.add(fn);
    },
    /**
     * The document as the file holds it now (loaded, reloaded or just saved).
     * @param {any} doc
     * @param {string} rev
     */
    load(doc, rev) {
      history.reset(doc);
      revision = rev;
      savedJson = JSON.stringify(doc);
      map = null;
      check();
      if (selected && !doc?.[selected.list]?.[selected.index]) selected = null;
      changed('load');
    },
    /** The file now holds the document as it is here (a save went through). @param {string} rev */
    saved(rev) {
      revision = rev;
      savedJson = JSON.stringify(history.current());
      changed('saved');
    },
    /**
     * Make an edit (undoable); select `select` afterwards when given.
     * @param {any} doc
     * @param {string} label
     * @param {{ key?: string, select?: ItemRef | null }} [options]
     */
    edit(doc, label, { key, select } = {}) {
      history.push(doc, label, key);
      if (select !== undefined) selected = select;
      check();
      changed('edit');
    },
    undo() {
      if (!history.undo()) return false;
      if (selected && !history.current()?.[selected.list]?.[selected.index]) selected = null;
      check();
      changed('undo');
      return true;
    },
    redo() {
      if (!history.redo()) return false;
      check();
      changed('redo');
      return true;
    },
    /** @param {ItemRef | null} ref */
    select(ref) {
      selected = ref;
      changed('select');
    },
  };
}

/** What the bar grid depends on. @param {any} score */
const timeKey = (score) => JSON.stringify([score.bars, score.meter, score.tempo, score.sections, score.printedBars ?? null]);
