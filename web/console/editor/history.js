// The editor's undo and redo: every edit replaces the whole score document (a JSON value) and
// keeps the one before it. Typing in one field is one step, not one per key: an edit with the
// same `key` as the last one, within a moment, replaces that step instead of adding one.

/** Steps kept; the oldest go first (a long session must not grow without bound). */
export const HISTORY_STEPS = 200;
/** Edits of the same field closer together than this are one step. */
export const MERGE_MS = 1500;

/**
 * @template T
 * @param {T} initial the document as loaded
 * @param {{ now?: () => number, steps?: number }} [options]
 */
export function createHistory(initial, { now = () => Date.now(), steps = HISTORY_STEPS } = {}) {
  /** @type {Array<{ doc: T, label: string }>} */
  let past = [];
  /** @type {Array<{ doc: T, label: string }>} */
  let future = [];
  let current = initial;
  let last = { key: '', at: -Infinity };

  return {
    /** The document now. */
    current: () => current,
    /**
     * Record an edit: `doc` becomes current; undo brings back the one before.
     * @param {T} doc
     * @param {string} label what the step did, for the Undo button's title ("Move text cue")
     * @param {string} [key] edits with the same key in a row (typing) merge into one step
     */
    push(doc, label, key) {
      const t = now();
      const merge = key !== undefined && key === last.key && t - last.at < MERGE_MS && past.length > 0;
      if (!merge) past.push({ doc: current, label });
      if (past.length > steps) past = past.slice(past.length - steps);
      future = [];
      current = doc;
      last = { key: key ?? '', at: t };
    },
    /** Step back; false when there is nothing to undo. */
    undo() {
      const step = past.pop();
      if (!step) return false;
      future.push({ doc: current, label: step.label });
      current = step.doc;
      last = { key: '', at: -Infinity };
      return true;
    },
    /** Step forward again; false when there is nothing to redo. */
    redo() {
      const step = future.pop();
      if (!step) return false;
      past.push({ doc: current, label: step.label });
      current = step.doc;
      last = { key: '', at: -Infinity };
      return true;
    },
    /** Labels of the next undo and redo steps (undefined when none). */
    next: () => ({ undo: past.at(-1)?.label, redo: future.at(-1)?.label }),
    /**
     * Start over from a document (loaded or reloaded from the file): no steps either way.
     * @param {T} doc
     */
    reset(doc) {
      past = [];
      future = [];
      current = doc;
      last = { key: '', at: -Infinity };
    },
  };
}
