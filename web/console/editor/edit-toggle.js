// "Edit score" in the top bar: the editor takes the place of the stage's cards, and back. The
// show keeps running either way; the button says which view is open (aria-pressed).

import { $ } from '../dom.js';

/** @param {{ open: () => Promise<void> }} editor */
export function installEditToggle(editor) {
  const button = $('edit-toggle');
  button.addEventListener('click', () => {
    const editing = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(editing));
    button.textContent = editing ? 'Back to the stage' : 'Edit score';
    $('editor').hidden = !editing;
    $('layout').hidden = editing;
    if (editing) void editor.open();
  });
}
