// The view's tiles (docs/reference/score-format.md): a grid of coloured cells a score's view data
// may carry, one per id in numeric order. Only #rgb/#rrggbb colours and text are written, so no
// CSS value can make the phone fetch anything (core/protocol/colour.js).

import { isColour } from '#core/protocol/colour.js';
import { t } from './i18n.js';

const MAX_TILES = 400;

/**
 * @param {HTMLElement} root the tiles' container
 * @returns {(tiles: Record<string, { c?: string, s?: unknown }> | null | undefined) => void} draw the tiles (none: hidden)
 */
export function createTilesView(root) {
  /** @type {Map<string, HTMLElement>} */
  const cells = new Map();
  return (tiles) => {
    if (!tiles || typeof tiles !== 'object') {
      root.hidden = true;
      return;
    }
    const ids = Object.keys(tiles)
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
      .slice(0, MAX_TILES);
    const sameSet = ids.length === cells.size && ids.every((id) => cells.has(id));
    if (!sameSet) {
      // Rare (score load): rebuild in sorted order. Per-cue updates only restyle existing cells.
      cells.clear();
      root.replaceChildren(
        ...ids.map((id) => {
          const node = document.createElement('span');
          cells.set(id, node);
          return node;
        }),
      );
    }
    for (const id of ids) {
      const node = /** @type {HTMLElement} */ (cells.get(id));
      const tile = tiles[id] ?? {};
      // Only #rgb/#rrggbb: any other CSS (url(…), image-set(…)) would make the phone fetch it.
      const color = isColour(tile.c) ? tile.c : '';
      if (node.style.background !== color) node.style.background = color;
      const label = tile.s == null ? '' : String(tile.s);
      if (node.textContent !== label) node.textContent = label;
    }
    // Many tiles: small cells, colour only.
    root.classList.toggle('dense', ids.length > 48);
    // One summary for screen readers instead of hundreds of cells.
    root.setAttribute('aria-label', t('stage.tiles', { n: ids.length }));
    root.hidden = ids.length === 0;
  };
}
