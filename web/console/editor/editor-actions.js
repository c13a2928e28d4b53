// What the editor's buttons, keys and drags do to the document: add a cue of a kind at the
// cursor, move an item by beats, copy it to the cursor, delete it, add a media asset. Each is
// one undoable step (editor-state.js) with a label the Undo button shows.

import { NEW_CUE, NEW_ITEM, addItem, addCue, moveItem, copyItem, deleteItem, addAsset, setField } from './edits.js';
import { cueLabel } from './lanes.js';

/**
 * @param {{ state: ReturnType<typeof import('./editor-state.js').createEditorState>, cursor: () => { bar: number, beat: number },
 *   say: (text: string, kind?: string) => void }} options
 */
export function createEditorActions({ state, cursor, say }) {
  const map = () => /** @type {any} */ (state.map());
  const firstAsset = (/** @type {string} */ kind) => (state.doc().assets ?? []).find((/** @type {any} */ a) => a?.kind === kind)?.id;

  /** A prompt or a reaction window at the cursor (a reaction lasts a bar to begin with). */
  function addWindow(/** @type {'prompt' | 'reaction'} */ kind) {
    const at = cursor();
    const taken = (state.doc().prompts ?? []).map((/** @type {any} */ p) => p?.id);
    const body =
      kind === 'prompt'
        ? NEW_ITEM.prompt(taken)
        : { until: map().positionOf(map().indexOf(at) + map().bars[at.bar - 1].beats), ...NEW_ITEM.reaction() };
    const { doc, ref } = addItem(state.doc(), kind === 'prompt' ? 'prompts' : 'reactions', body, at);
    state.edit(doc, `Add ${kind}`, { select: ref });
    say(`Added a ${kind} at bar ${at.bar} beat ${at.beat}.`, 'ok');
    return ref;
  }

  const api = {
    /** @param {keyof typeof NEW_CUE | 'prompt' | 'reaction'} kind */
    add(kind) {
      if (kind === 'prompt' || kind === 'reaction') return addWindow(kind);
      const arg = kind === 'image' ? firstAsset('image') : kind === 'sound' ? firstAsset('audio') : undefined;
      const at = cursor();
      const { doc, ref } = addCue(state.doc(), NEW_CUE[kind](arg), at);
      state.edit(doc, `Add ${kind} cue`, { select: ref });
      say(`Added a ${kind} cue at bar ${at.bar} beat ${at.beat}.`, 'ok');
      return ref;
    },
    /** @param {import('./lanes.js').ItemRef} ref @param {number} byBeats */
    move(ref, byBeats) {
      const item = state.doc()[ref.list][ref.index];
      const shift = (/** @type {any} */ p) => map().positionOf(map().indexOf(p) + byBeats);
      const at = shift(item.at);
      if (map().indexOf(at) === map().indexOf(item.at)) return;
      state.edit(moveItem(state.doc(), ref, at, shift), `Move ${cueLabel(item)}`, { select: ref });
      say(`Moved to bar ${at.bar} beat ${at.beat}.`, 'ok');
    },
    /** Move an item to the cursor (typed as a bar, a beat or a printed bar). @param {import('./lanes.js').ItemRef} ref */
    moveHere(ref) {
      const item = state.doc()[ref.list][ref.index];
      api.move(ref, map().indexOf(cursor()) - map().indexOf(item.at));
    },
    /** @param {import('./lanes.js').ItemRef} ref */
    copy(ref) {
      const at = cursor();
      const from = map().indexOf(state.doc()[ref.list][ref.index].at);
      const shift = (/** @type {any} */ p) => map().positionOf(map().indexOf(p) + map().indexOf(at) - from);
      const { doc, ref: twin } = copyItem(state.doc(), ref, at, shift);
      state.edit(doc, `Copy ${cueLabel(state.doc()[ref.list][ref.index])}`, { select: twin });
      say(`Copied to bar ${at.bar} beat ${at.beat}.`, 'ok');
    },
    /** @param {import('./lanes.js').ItemRef} ref */
    remove(ref) {
      const label = cueLabel(state.doc()[ref.list][ref.index]);
      state.edit(deleteItem(state.doc(), ref), `Delete ${label}`, { select: null });
      // The chip is gone: the keyboard goes to its lane rather than to nowhere.
      /** @type {HTMLElement | null} */ (document.querySelector('#ed-timeline'))?.focus();
      say(`Deleted ${label}. Undo brings it back.`, 'ok');
    },
    /** @param {{ id: string, kind: string }} asset */
    asset(asset) {
      let doc = addAsset(state.doc(), asset);
      const sel = state.selected();
      const cue = sel?.list === 'cues' ? doc.cues[sel.index] : null;
      if (asset.kind === 'image' && cue?.view) doc = setField(doc, /** @type {any} */ (sel), ['view', 'image'], asset.id);
      if (asset.kind === 'audio' && cue?.audio) doc = setField(doc, /** @type {any} */ (sel), ['audio', 'asset'], asset.id);
      state.edit(doc, `Add media ${asset.id}`);
    },
  };
  return api;
}
