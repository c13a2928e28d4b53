// The sounds at the previewed place, under the phone preview: the audio cues on the cursor's
// beat, and the last sound started before it (a phone that played up to here started it, and
// it may still ring). Each has a Play button; nothing plays by itself. The file comes from the
// console's own origin (local-server/src/console/console-score-media.js), as the preview's images do.

import { h, fill } from '../dom.js';
import { mediaUrl } from '../../../core/score/audience-view.js';

/**
 * @param {{ root: HTMLElement, state: ReturnType<typeof import('./editor-state.js').createEditorState> }} options
 */
export function createPreviewSounds({ root, state }) {
  const list = h('ul', { class: 'ed-sounds', dataset: { testid: 'preview-sounds' }, 'aria-label': 'Sounds at the cursor' });
  root.append(list);
  /** @type {HTMLAudioElement | null} */
  let playing = null;
  /** @type {string} */
  let playingUrl = '';

  /** Play one sound (a click: browsers start sound only from a gesture), stopping the one before. */
  async function play(/** @type {{ id: string, src: string, gain: number }} */ { id, src, gain }) {
    playing?.pause();
    if (playingUrl) URL.revokeObjectURL(playingUrl);
    // Fetched, then played from a blob: URL (the console's CSP allows media only from blob:).
    const res = await fetch(new URL(src, new URL('/console/score/', location.href)));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    playingUrl = URL.createObjectURL(await res.blob());
    playing = new Audio(playingUrl);
    playing.volume = Math.min(1, gain);
    root.dataset.played = id;
    await playing.play();
  }

  /** The audio cues a phone has at beat `index`: started there, or the last started before it. */
  function soundsAt(/** @type {number} */ index) {
    const score = state.good();
    const map = state.map();
    if (!score || !map) return [];
    const assets = new Map(score.assets.map((/** @type {any} */ a) => [a.id, a]));
    const audio = score.cues
      .filter((/** @type {any} */ c) => c.audio && assets.has(c.audio.asset))
      .map((/** @type {any} */ c) => ({ cue: c, i: map.indexOf(c.at) }));
    const here = audio.filter((a) => a.i === index);
    const before = audio
      .filter((a) => a.i < index)
      .sort((a, b) => a.i - b.i)
      .at(-1);
    return [...(before ? [{ ...before, when: 'started' }] : []), ...here.map((a) => ({ ...a, when: 'here' }))].map((a) => ({
      id: a.cue.audio.asset,
      src: mediaUrl(assets.get(a.cue.audio.asset)),
      gain: a.cue.audio.gain ?? 1,
      where: a.when === 'here' ? 'on this beat' : `started at bar ${a.cue.at.bar} beat ${a.cue.at.beat ?? 1}`,
    }));
  }

  return {
    /** @param {{ bar: number, beat: number }} at */
    show(at) {
      const map = state.map();
      const sounds = map ? soundsAt(map.indexOf(at)) : [];
      fill(
        list,
        ...sounds.map((s) =>
          h(
            'li',
            { dataset: { sound: s.id } },
            h('button', {
              type: 'button',
              class: 'btn btn-small',
              text: `▶ ${s.id}`,
              'aria-label': `▶ ${s.id}: play the sound (${s.where})`,
              onclick: () => void play(s).catch((err) => (root.dataset.playError = String(err?.message ?? err))),
            }),
            h('span', { class: 'hint', text: ` ${s.where}` }),
          ),
        ),
      );
      list.hidden = sounds.length === 0;
    },
  };
}
