// Media for the score: an image or a sound dropped on the editor (or chosen with the file button,
// for the keyboard) goes to POST /api/score/media (SPEC §11), which checks its type and size and
// keeps its name inside the score's media folder; the asset entry it answers is added to the
// document as an undoable edit. An image dropped while a view cue is selected becomes its image.

import { h } from '../dom.js';

/**
 * @param {{ root: HTMLElement, token: string, onAsset: (asset: { id: string, kind: string, src: string }) => void, say: (text: string, kind?: string) => void }} options
 * @returns {HTMLElement} the file button, for the toolbar
 */
export function createMediaDrop({ root, token, onAsset, say }) {
  async function upload(/** @type {File} */ file) {
    say(`Adding ${file.name}…`, 'ok');
    try {
      const res = await fetch(`/api/score/media?name=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': file.type || 'application/octet-stream', 'x-tutti-client': 'console' },
        body: file,
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
      onAsset(body.asset ?? body);
      say(`Added ${file.name} to the score's media.`, 'ok');
    } catch (err) {
      say(`${file.name} was not added: ${/** @type {Error} */ (err).message}`, 'bad');
    }
  }

  root.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    root.classList.add('ed-drop');
  });
  root.addEventListener('dragleave', () => root.classList.remove('ed-drop'));
  root.addEventListener('drop', (e) => {
    root.classList.remove('ed-drop');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    e.preventDefault();
    files.forEach((f) => void upload(f));
  });

  const picker = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'file',
      accept: 'image/*,audio/*',
      class: 'sr-only',
      id: 'ed-media-file',
      tabindex: '-1',
      'aria-label': 'Image or sound file to add',
    })
  );
  picker.addEventListener('change', () => [...(picker.files ?? [])].forEach((f) => void upload(f)));
  const button = h('button', { type: 'button', class: 'btn btn-small', text: 'Add image or sound…', onclick: () => picker.click() });
  return h('span', {}, button, picker);
}
