// "Preview as a phone sees it": a phone-sized frame showing the audience view at the cursor's bar
// and beat, as it would be after playing there (the same cue index the show seeks with,
// core/score/cue-index.js), drawn by the audience page's own view code (phone-main.js). The
// preview follows the editor's document as it is, edits included, as long as it validates.

import { h } from '../dom.js';
import { createCueIndex } from '../../../core/score/cue-index.js';

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   base: () => string | null }} options `base`: the keyed notation URL on this listener, for the
 *   engraved score a view shows (as the part preview's)
 */
export function createPhonePreview({ root, state, base }) {
  const frame = /** @type {HTMLIFrameElement} */ (
    h('iframe', {
      class: 'ed-phone',
      title: 'Phone preview: the audience page at the cursor',
      src: '/console/editor/phone.html',
      dataset: { testid: 'phone-preview' },
    })
  );
  root.append(frame);
  /** @type {{ score: any, index: ReturnType<typeof createCueIndex> } | null} */
  let cached = null;
  /** @type {{ bar: number, beat: number } | null} */
  let pending = null;

  /** The cue index of the last valid document (rebuilt only when that changes). */
  function indexFor(score) {
    if (cached?.score === score) return cached.index;
    const map = /** @type {any} */ (state.map());
    const cues = score.cues.map((/** @type {any} */ c) => ({ ...c, index: map.indexOf(c.at) }));
    const assets = new Map(score.assets.map((/** @type {any} */ a) => [a.id, a]));
    cached = { score, index: createCueIndex({ cues, initialView: score.view, assets }) };
    return cached.index;
  }

  /** What a phone is given at a place: the frame (position, section, score) and the view. */
  function stateAt(/** @type {{ bar: number, beat: number }} */ at) {
    const score = state.good();
    const map = /** @type {any} */ (state.map());
    const index = map.indexOf(at);
    const pos = map.positionOf(index);
    const section = [...score.sections].reverse().find((s) => map.indexOf(s.at) <= index);
    return {
      frame: {
        position: { bar: pos.bar, beat: pos.beat, beats: map.bars[pos.bar - 1].beats },
        section: section ? { mark: section.mark, name: section.name } : null,
        transport: 'stopped',
        tempo: Math.round(map.timeline.bpmAt(index)),
        score: { title: score.title, composer: score.composer, bars: score.bars },
      },
      view: indexFor(score).viewAt(index),
    };
  }

  function draw() {
    const phone = /** @type {any} */ (frame.contentWindow)?.tuttiPhone;
    const score = state.good();
    if (!phone || !pending || !score) return;
    phone.show({ ...stateAt(pending), notationBase: score.notation ? base() : null });
  }
  frame.addEventListener('load', () => {
    const win = /** @type {any} */ (frame.contentWindow);
    if (win?.tuttiPhone) draw();
    else win?.addEventListener('tutti-phone-ready', draw, { once: true });
  });

  return {
    /** Show the phone at a place (the editor's cursor). @param {{ bar: number, beat: number }} at */
    show(at) {
      pending = at;
      draw();
    },
    stateAt,
  };
}
