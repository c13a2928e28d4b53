// What the replay shows of one moment (docs/how-to/record-and-replay.md#replaying-a-record): a phone-sized preview of
// what the audience saw — section, bar:beat, the view's text, instruction, colour and image (its
// file from the record's score folder, replay-media.js; named when the file is gone), the sound
// cue (played at 1×, named always), the vote, the rehearsal screen — and beside it the transport,
// the audience figures and the last actions with who made them.

import { $, h, fill, setText, clockTime } from './dom.js';

/** How long (record time) a sound cue stays named in the preview. */
const SOUND_SHOWN_MS = 2000;

/** A readable text colour on a view's background colour (#rrggbb), else null. */
function inkOn(color) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(color ?? ''));
  if (!m) return null;
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#111111' : '#f5f5f5';
}

/** The vote as the phones saw it: question, options with counts, result. */
function voteLine(vote) {
  if (!vote) return '';
  const counts = vote.options.map((o, i) => `${o.label} ${vote.counts?.[i] ?? 0}`).join(' · ');
  return `${vote.q} — ${counts}${vote.closed ? ` → ${vote.winner}` : ''}`;
}

/**
 * @param {{ onJump: (t: number) => void, media: ReturnType<typeof import('./replay-media.js').createReplayMedia> }} deps
 *   onJump: an action was clicked (its record time); media: shows the images and plays the sounds
 */
export function createReplayView({ onJump, media }) {
  const el = {
    phone: $('replay-phone'),
    section: $('replay-section'),
    bar: $('replay-bar'),
    beat: $('replay-beat'),
    transport: $('replay-transport'),
    stage: $('replay-stage'),
    text: $('replay-text'),
    instruction: $('replay-instruction'),
    sound: $('replay-sound'),
    vote: $('replay-vote'),
    viewers: $('replay-viewers'),
    actions: $('replay-actions'),
  };
  let lastActions = -1;
  /** The record time of the previous render: a sound cue plays when live time crosses its `at`. */
  let lastT = -Infinity;

  /**
   * @param {ReturnType<ReturnType<typeof import('./replay-player.js').createReplayPlayer>['moment']>} m
   * @param {{ live: boolean }} how live: the replay runs at 1× and this is not a jump (sounds play)
   */
  function render(m, { live }) {
    el.phone.classList.toggle('rehearsing', m.rehearsal);
    setText(el.section, m.section ? [m.section.mark, m.section.name].filter(Boolean).join(' — ') : '');
    setText(el.bar, m.position?.bar ?? '–');
    setText(el.beat, m.position?.beat ?? '–');
    setText(el.transport, m.transport ? `${m.transport}${m.tempo ? ` · ${Math.round(m.tempo * 10) / 10} bpm` : ''}` : '');
    const v = m.view ?? {};
    setText(el.text, typeof v.text === 'string' ? v.text : '');
    setText(el.instruction, typeof v.instruction === 'string' ? v.instruction : '');
    media.showImage(typeof v.image === 'string' ? v.image : null, m.scoreIndex);
    const ink = inkOn(v.color);
    el.stage.style.background = ink ? v.color : '';
    el.stage.style.color = ink ?? '';
    // A sound cue is named for a moment from the time it sounds, as the phones played it.
    const sounding = m.audio?.src && typeof m.audio.at === 'number' && m.t >= m.audio.at && m.t < m.audio.at + SOUND_SHOWN_MS;
    setText(el.sound, sounding ? `♪ ${m.audio.src}` : '');
    if (live && sounding && m.audio.at > lastT) media.play(m.audio.src, m.audio.gain ?? 1, m.scoreIndex);
    lastT = m.t;
    setText(el.vote, m.rehearsal ? '' : voteLine(m.vote));
    const s = m.sample;
    setText(
      el.viewers,
      s ? `${s.viewers.ws + s.viewers.sse + s.viewers.poll} at the venue${s.viewers.edge ? ` + ${s.viewers.edge} on the edge` : ''}` : '—',
    );
    if (m.actionsDone !== lastActions) {
      lastActions = m.actionsDone;
      fill(
        el.actions,
        ...m.recent
          .slice()
          .reverse()
          .map((a) =>
            h(
              'li',
              {},
              h('button', { type: 'button', class: 'linkish', text: `${clockTime(a.t)} ${a.what} — ${a.by}`, onclick: () => onJump(a.t) }),
            ),
          ),
      );
    }
  }
  return {
    render,
    /** A new replay starts: its first cue may sound whatever the last replay's clock read. */
    reset() {
      lastT = -Infinity;
    },
  };
}
