// The edits the composer makes, as pure functions: each takes the score document (the file's
// JSON) and returns a new one, leaving the old one untouched for undo (history.js). Cues are
// added at the end of the list (the file keeps its order; cues at one position run in file
// order, docs/reference/score-format.md#scores) and a copy goes right after its original.

/** @typedef {import('./lanes.js').ItemRef} ItemRef */

const copy = (/** @type {any} */ value) => structuredClone(value);

/** What a new cue of each kind holds before the composer fills it in. */
export const NEW_CUE = Object.freeze({
  text: () => ({ view: { text: 'New text' } }),
  colour: () => ({ view: { color: '#204060' } }),
  image: (/** @type {string | undefined} */ asset) => ({ view: asset ? { image: asset } : { image: '' } }),
  sound: (/** @type {string | undefined} */ asset) => ({ audio: { asset: asset ?? '' } }),
  osc: (/** @type {string | undefined} */ part) => ({ osc: { ...(part ? { part } : {}), address: '/cue', args: [] } }),
});

/** A new prompt (two options to rename) and a new reaction window one bar long. */
export const NEW_ITEM = Object.freeze({
  prompt: (/** @type {string[]} */ taken) => ({
    id: uniqueId(taken, 'vote'),
    beats: 8,
    question: 'Which way?',
    options: [
      { id: 'a', label: 'This way' },
      { id: 'b', label: 'That way' },
    ],
  }),
  reaction: () => ({ label: 'Tap' }),
});

/**
 * Add a prompt or a reaction window at a place (a reaction's `until` given).
 * @param {any} doc
 * @param {'prompts' | 'reactions'} list
 * @param {Record<string, unknown>} body
 * @param {{ bar: number, beat?: number }} at
 * @returns {{ doc: any, ref: ItemRef }}
 */
export function addItem(doc, list, body, at) {
  const next = copy(doc);
  if (!Array.isArray(next[list])) next[list] = [];
  next[list].push({ at: cleanAt(at), ...body });
  return { doc: next, ref: { list, index: next[list].length - 1 } };
}

/** A position as the file writes it: beat 1 left out. @param {{ bar: number, beat?: number }} at */
export const cleanAt = (at) => (at.beat && at.beat !== 1 ? { bar: at.bar, beat: at.beat } : { bar: at.bar });

/**
 * Add a cue; returns the new document and the new cue's ref.
 * @param {any} doc
 * @param {Record<string, unknown>} body the cue without `at`
 * @param {{ bar: number, beat?: number }} at
 * @returns {{ doc: any, ref: ItemRef }}
 */
export function addCue(doc, body, at) {
  const next = copy(doc);
  if (!Array.isArray(next.cues)) next.cues = [];
  next.cues.push({ at: cleanAt(at), ...body });
  return { doc: next, ref: { list: 'cues', index: next.cues.length - 1 } };
}

/**
 * Move an item (its `at`; a reaction's `until` keeps its length in beats via `shift`).
 * @param {any} doc
 * @param {ItemRef} ref
 * @param {{ bar: number, beat?: number }} at
 * @param {(until: any) => any} [shift] where a reaction window's end goes (given the old one)
 */
export function moveItem(doc, ref, at, shift) {
  const next = copy(doc);
  const item = next[ref.list][ref.index];
  item.at = cleanAt(at);
  if (ref.list === 'reactions' && shift && item.until) item.until = cleanAt(shift(item.until));
  return next;
}

/**
 * Set (or, with undefined, remove) one field of an item, by a key path under it.
 * @param {any} doc
 * @param {ItemRef} ref
 * @param {string[]} keys e.g. ['view', 'text']
 * @param {unknown} value
 */
export function setField(doc, ref, keys, value) {
  const next = copy(doc);
  let node = next[ref.list][ref.index];
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key];
  }
  const last = /** @type {string} */ (keys.at(-1));
  if (value === undefined) delete node[last];
  else node[last] = value;
  return next;
}

/**
 * Copy an item to another position; the copy follows its original in the file.
 * @param {any} doc
 * @param {ItemRef} ref
 * @param {{ bar: number, beat?: number }} at
 * @param {(until: any) => any} [shift] where a reaction window's end goes (given the original's)
 * @returns {{ doc: any, ref: ItemRef }}
 */
export function copyItem(doc, ref, at, shift) {
  const next = copy(doc);
  const list = next[ref.list];
  const twin = copy(list[ref.index]);
  twin.at = cleanAt(at);
  if (ref.list === 'reactions' && shift && twin.until) twin.until = cleanAt(shift(twin.until));
  if (ref.list === 'prompts')
    twin.id = uniqueId(
      list.map((/** @type {any} */ p) => p.id),
      twin.id,
    );
  list.splice(ref.index + 1, 0, twin);
  return { doc: next, ref: { list: ref.list, index: ref.index + 1 } };
}

/** @param {any} doc @param {ItemRef} ref */
export function deleteItem(doc, ref) {
  const next = copy(doc);
  next[ref.list].splice(ref.index, 1);
  return next;
}

/**
 * Add a media asset (the entry POST /api/score/media answered), unless one with its id is there.
 * @param {any} doc
 * @param {{ id: string }} asset
 */
export function addAsset(doc, asset) {
  const next = copy(doc);
  if (!Array.isArray(next.assets)) next.assets = [];
  if (!next.assets.some((/** @type {any} */ a) => a.id === asset.id)) next.assets.push(asset);
  return next;
}

/** `base-2`, `base-3`… the first not taken. @param {string[]} taken @param {string} base */
function uniqueId(taken, base) {
  for (let n = 2; n < 1000; n += 1) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
  return `${base}-copy`;
}
