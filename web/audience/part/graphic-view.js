// A graphic score on the part page (docs/how-to/graphic-scores.md): the part's strip of images
// scrolls right to left past a fixed playhead, Decibel ScorePlayer style, on the synced clock. It
// moves every frame from the fractional beat the flywheel computes, so it keeps going through a
// network outage as the beat display does, and stands still while the show is stopped.

import { stripXAt } from '#core/score/graphic-map.js';

/** Where the playhead stands, as a share of the view's width: most of the screen shows what comes. */
const PLAYHEAD_AT = 0.25;

/**
 * @typedef {import('#core/score/graphic-map.js').GraphicStrip} GraphicStrip
 * @typedef {object} GraphicView
 * @property {(strip: GraphicStrip | null, base: string) => void} show the strip to scroll (null: none)
 * @property {() => { x: number, index: number } | null} inspect what is under the playhead now
 */

/**
 * The graphic-score pane, placed before `before` in its parent; hidden until a strip is shown.
 * @param {{ before: Element, now: () => number | null }} options now: the fractional beat index
 *   sounding now (core/client/flywheel.js fractionalIndexAt), or the still position, or null
 * @returns {GraphicView}
 */
export function createGraphicView({ before, now }) {
  const pane = document.createElement('section');
  pane.id = 'graphic';
  pane.className = 'graphic';
  pane.hidden = true;
  pane.setAttribute('aria-label', 'Graphic score');
  const track = document.createElement('div');
  track.className = 'graphic-strip';
  const playhead = document.createElement('div');
  playhead.className = 'graphic-playhead';
  playhead.setAttribute('aria-hidden', 'true');
  pane.append(track, playhead);
  before.parentElement?.insertBefore(pane, before);

  /** @type {GraphicStrip | null} */
  let strip = null;
  let frame = 0;
  let last = /** @type {{ x: number, index: number } | null} */ (null);

  function draw() {
    frame = requestAnimationFrame(draw);
    const index = now();
    if (!strip || index === null) return;
    const x = stripXAt(strip, index);
    if (last && last.x === x && last.index === index) return;
    // Scale the strip to the pane's height; the x under the playhead moves it left.
    const scale = pane.clientHeight / strip.height;
    track.style.transform = `translate3d(${(pane.clientWidth * PLAYHEAD_AT - x * scale).toFixed(1)}px, 0, 0) scale(${scale})`;
    pane.dataset.graphicX = x.toFixed(1);
    pane.dataset.graphicIndex = index.toFixed(3);
    last = { x, index };
  }

  return {
    show(next, base) {
      cancelAnimationFrame(frame);
      strip = next;
      last = null;
      track.replaceChildren();
      pane.hidden = !next;
      document.body.classList.toggle('has-graphic', Boolean(next));
      if (!next) return;
      for (const image of next.images) {
        const img = document.createElement('img');
        // Media URLs are relative to the audience page at the server's root, not to /part/<key>/.
        img.src = new URL(`/${image.url}`, base).href;
        img.width = image.width;
        img.height = image.height;
        img.alt = '';
        img.decoding = 'async';
        track.append(img);
      }
      track.style.width = `${next.images.reduce((sum, image) => sum + image.width, 0)}px`;
      track.style.height = `${next.height}px`;
      frame = requestAnimationFrame(draw);
    },
    inspect: () => last,
  };
}
