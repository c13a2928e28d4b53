// The console's Edit view (docs/tutorials/first-piece-without-json.md): the timeline of bars and
// lanes, the form of the selected cue, the phone preview at the cursor, Undo/Redo/Save and the
// cursor's place. Keys inside the view: Ctrl/Cmd+Z undo, Shift+Ctrl/Cmd+Z (or Ctrl+Y) redo,
// Ctrl/Cmd+S save; the stage's shortcuts (Space, arrows) stay out of it while it is open.

import { $, h, fill, setText } from '../dom.js';
import { createEditorState } from './editor-state.js';
import { createEditorActions } from './editor-actions.js';
import { createTimelineView } from './timeline-view.js';
import { createCueForm } from './cue-form.js';
import { createPhonePreview } from './phone-preview.js';
import { createPartPreview } from './part-preview.js';
import { createPreviewSounds } from './preview-sounds.js';
import { createTimelineNotation } from './timeline-notation.js';
import { createSaveFlow } from './save-flow.js';
import { createMediaDrop } from './media-drop.js';
import { createCursorForm } from './cursor-form.js';
import { installEditorKeys } from './editor-keys.js';

/** The field a new item's form opens on, by kind. */
const FIRST_FIELD = /** @type {Record<string, string>} */ ({
  text: 'view.text',
  colour: 'view.color',
  image: 'view.image',
  sound: 'audio.asset',
  osc: 'osc.address',
  prompt: 'question',
  reaction: 'until.bar',
});

/**
 * @param {{ api: ReturnType<typeof import('../api.js').createApi> }} options
 */
export function createEditorPanel({ api }) {
  const root = $('editor');
  const state = createEditorState();
  let cursor = { bar: 1, beat: 1 };
  const message = $('ed-message');

  /** One line of news with its choices (a save's conflict, a media upload…). */
  function say(text, kind = 'warn', choices = /** @type {Array<[string, () => void]>} */ ([])) {
    message.className = `ed-message ${kind}`;
    fill(
      message,
      h('span', { text }),
      ...choices.map(([label, fn]) => h('button', { type: 'button', class: 'btn btn-small', text: label, onclick: fn })),
    );
  }
  const ask = (text, choices, kind = 'warn') => say(text, kind, choices);

  const actions = createEditorActions({ state, cursor: () => cursor, say });
  // The engraved score a view shows comes from the timeline's keyed notation URL (made below).
  const preview = createPhonePreview({ root: $('ed-preview-frame'), state, base: () => notation.base() });
  const sounds = createPreviewSounds({ root: $('ed-preview-sounds'), state });
  const timeline = createTimelineView({
    root: $('ed-timeline'),
    state,
    onMove: actions.move,
    onDelete: actions.remove,
    onCursor: (at) => setCursor(at),
    cursor: () => cursor,
  });
  const notation = createTimelineNotation({ api, state, timeline, say });
  const partPreview = createPartPreview({ root: $('ed-part-preview'), state, base: notation.base });
  const form = createCueForm({ root: $('ed-form'), state, onCopy: actions.copy, onDelete: actions.remove, onMoveHere: actions.moveHere });
  const saving = createSaveFlow({
    api,
    state,
    ask,
    onProblems: (problems) => say(problems.map((p) => `${p.path}: ${p.message}`).join(' · '), 'bad'),
  });
  const where = createCursorForm({ root: $('ed-cursor-form'), state, onCursor: (at) => setCursor(at) });
  $('ed-media').append(createMediaDrop({ root, token: api.token, onAsset: actions.asset, say }));

  function setCursor(at) {
    const map = state.map();
    if (!map) return;
    cursor = map.positionOf(map.indexOf(at));
    where.show(cursor);
    preview.show(cursor);
    sounds.show(cursor);
    partPreview.show(cursor);
    timeline.render();
  }

  const undoButton = /** @type {HTMLButtonElement} */ ($('ed-undo'));
  const redoButton = /** @type {HTMLButtonElement} */ ($('ed-redo'));
  function renderBar() {
    const next = state.next();
    undoButton.disabled = !next.undo;
    redoButton.disabled = !next.redo;
    undoButton.title = next.undo ? `Undo: ${next.undo} (Ctrl+Z)` : 'Nothing to undo';
    redoButton.title = next.redo ? `Redo: ${next.redo} (Shift+Ctrl+Z)` : 'Nothing to redo';
    const n = state.problems().length;
    setText($('ed-status'), `${state.dirty() ? 'Unsaved edits' : 'Saved'}${n ? ` · ${n} problem${n === 1 ? '' : 's'}` : ''}`);
  }

  state.subscribe((why) => {
    timeline.render();
    form.render();
    renderBar();
    if (why === 'select') return;
    preview.show(cursor);
    sounds.show(cursor);
    partPreview.show(cursor);
    notation.follow();
  });

  const undo = () => state.undo() && say(`Undone.`, 'ok');
  const redo = () => state.redo() && say(`Redone.`, 'ok');
  undoButton.addEventListener('click', undo);
  redoButton.addEventListener('click', redo);
  $('ed-save').addEventListener('click', () => void saving.save());
  $('ed-rehearse').addEventListener('click', () => void rehearse());
  for (const button of root.querySelectorAll('[data-add]'))
    button.addEventListener('click', () => {
      actions.add(/** @type {any} */ (/** @type {HTMLElement} */ (button).dataset.add));
      // The keyboard goes to what the new cue says (its text, colour…), not to its bar.
      const kind = /** @type {HTMLElement} */ (button).dataset.add ?? '';
      /** @type {HTMLElement | null} */ (root.querySelector(`[data-testid="field-${FIRST_FIELD[kind]}"]`))?.focus();
    });

  async function rehearse() {
    try {
      await api.post('/api/start', { from: { bar: cursor.bar, beat: cursor.beat }, countInBars: 1 });
      say(
        `Rehearsing from bar ${cursor.bar} beat ${cursor.beat} after a bar of count-in${state.dirty() ? ' (the saved score: save to hear these edits)' : ''}.`,
        'ok',
      );
    } catch (err) {
      say(`Could not start: ${/** @type {Error} */ (err).message}`, 'bad');
    }
  }

  installEditorKeys(root, { undo, redo, save: () => void saving.save() });

  async function open() {
    try {
      await notation.loadBase();
      if (!state.doc() || !state.dirty()) await saving.load();
      setCursor(cursor);
      notation.follow();
    } catch (err) {
      say(`The score could not be opened for editing: ${/** @type {Error} */ (err).message}`, 'bad');
    }
  }

  return {
    open,
    /**
     * The show loaded a score, or a save or a live edit changed it (from any console): follow it
     * when nothing here is unsaved. Another file is opened afresh; the same file saved as another
     * revision than ours is reloaded (save-flow.js follow). Unsaved edits stay: their save meets
     * the changed file as a 409, with the choice to reload or overwrite.
     * @param {{ path?: string } | null} summary the console's score summary
     * @param {string | null} [revision] the file's revision when a save (or a live edit) loaded it
     */
    scoreChanged(summary, revision = null) {
      if (root.hidden || !state.doc() || !summary?.path) return;
      if (summary.path !== saving.path()) {
        if (!state.dirty()) void open();
        return;
      }
      if (!revision) return;
      void saving
        .follow(revision)
        .then((reloaded) => reloaded && say('The score was changed from another console: shown here as it is now.', 'ok'))
        .catch(() => {}); // the next save still checks the revision
    },
    state,
    timeline,
    /** The timeline's notation, for the tests: the bars whose measure went on screen. */
    notation: () => notation.painted(),
  };
}
