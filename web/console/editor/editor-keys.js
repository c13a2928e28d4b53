// The editor's keys: Ctrl/Cmd+Z undo, Shift+Ctrl/Cmd+Z or Ctrl+Y redo, Ctrl/Cmd+S save, wherever
// the focus is while the view is open (after a delete it is on no chip). Inside the view the
// stage's shortcuts (shortcuts.js: Space = play, arrows = tempo) are not the editor's, so its
// key events stop at its edge.

/**
 * @param {HTMLElement} root the Edit view
 * @param {{ undo: () => void, redo: () => void, save: () => void }} actions
 */
export function installEditorKeys(root, { undo, redo, save }) {
  root.addEventListener('keydown', (e) => e.stopPropagation());
  root.addEventListener('keyup', (e) => e.stopPropagation());
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (root.hidden) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === 'z' && !e.shiftKey) undo();
    else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) redo();
    else if (mod && key === 's') save();
    else return;
    e.preventDefault();
  };
  root.addEventListener('keydown', onKey, { capture: true });
  document.addEventListener('keydown', (e) => {
    if (!root.contains(/** @type {Node} */ (e.target))) onKey(e);
  });
}
