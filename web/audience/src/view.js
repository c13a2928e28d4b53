// Everything the viewer sees. Only textContent and style properties are written (never HTML), so
// nothing in the state can inject markup; image URLs must be http(s) or relative; colours must
// be #rgb/#rrggbb (core/protocol/colour.js), so no CSS value can make the phone fetch anything.
// The connection indicator has its own file (connection-pill.js).

import { isColour } from '#core/protocol/colour.js';
import { createConnectionPill } from './connection-pill.js';
import { t, localizePage } from './i18n.js';
import { announcer } from './announcer.js';
import { createBeatFlashLimit, createChangeLimit } from './flash-limit.js';
import { createHaptics } from './haptics.js';
import { createTilesView } from './tiles-view.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Black or white, whichever reads better on a background colour. */
function textOn(color) {
  const probe = $('color-probe');
  probe.style.color = '';
  probe.style.color = color;
  const m = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g);
  if (!m || probe.style.color === '') return null;
  const [r, g, b] = m.map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000' : '#fff';
}

/** Write a node's text (only when it changed); no text hides it. */
function setText(node, text) {
  const value = text ?? '';
  if (node.textContent !== value) node.textContent = value;
  node.hidden = value === '';
}

/** The counter's pulse on a beat: a short scale-down (flash-limit.js decides whether it may). */
function pulse(/** @type {HTMLElement} */ counter) {
  counter.animate(
    [
      { transform: 'scale(1.06)', opacity: 1 },
      { transform: 'scale(1)', opacity: 0.86 },
    ],
    { duration: 180, easing: 'ease-out' },
  );
}

export function createView({ base }) {
  localizePage();
  const el = {
    title: $('title'),
    composer: $('composer'),
    section: $('section'),
    counter: $('counter'),
    bar: $('bar'),
    beat: $('beat'),
    beats: $('beats'),
    transport: $('transport'),
    stage: $('stage'),
    image: /** @type {HTMLImageElement} */ ($('image')),
    instruction: $('instruction'),
    text: $('text'),
    tiles: $('tiles'),
    fill: $('progress-fill'),
    progressLabel: $('progress-label'),
  };
  const pill = createConnectionPill();
  const flashes = createBeatFlashLimit();
  const haptics = createHaptics(/** @type {HTMLButtonElement} */ ($('vibrate')));
  const say = announcer().say;
  // The composer's colours at most ~6 changes a second (flash-limit.js), the latest always shown.
  const stageColour = createChangeLimit((/** @type {{ color: string, ink: string } | null} */ ink) => paintStage(ink));
  let stageInk = /** @type {{ color: string, ink: string } | null} */ (null);
  let lastSection = '';
  let lastSaid = '';
  const renderTiles = createTilesView(el.tiles);
  let lastTitle = '';
  let lastBeats = 0;
  /** Until the page has seen the show play, "stopped" means it has not started yet. */
  let seenPlaying = false;

  function renderScore(score) {
    const title = score?.title ?? 'Tutti';
    if (title !== lastTitle) {
      lastTitle = title;
      setText(el.title, title);
      document.title = `${title} · Tutti`;
    }
    setText(el.composer, score?.composer ?? '');
  }

  function renderBeats(beats, beat) {
    const n = Math.max(0, Math.min(16, beats | 0));
    if (n !== lastBeats) {
      el.beats.replaceChildren(...Array.from({ length: n }, () => document.createElement('i')));
      lastBeats = n;
    }
    el.beats.querySelectorAll('i').forEach((dot, i) => dot.classList.toggle('on', i === beat - 1));
  }

  /** @param {{ color: string, ink: string } | null} lit */
  function paintStage(lit) {
    el.stage.style.background = lit ? lit.color : '';
    el.stage.style.setProperty('--glow', lit ? lit.color : 'transparent');
    el.stage.style.color = lit ? lit.ink : '';
    el.stage.classList.toggle('lit', Boolean(lit));
  }

  return {
    /** The piece's title and composer alone (rehearsal mode shows them over its screen, rehearsal-screen.js). */
    score: renderScore,
    /** @param {{ position: any, section?: any, transport?: string, tempo?: number, score?: any }} frame */
    frame(frame) {
      const { position, section, transport, tempo, score } = frame;
      renderScore(score);
      const sectionText = section ? [section.mark, section.name].filter(Boolean).join(' — ') : '';
      setText(el.section, sectionText);
      // A new section is spoken (the section's own words, as the composer wrote them); beats never are.
      if (sectionText && sectionText !== lastSection) say(t('section.now', { name: sectionText }));
      lastSection = sectionText;
      const bar = position?.bar ?? '–';
      const beat = position?.beat ?? '–';
      el.bar.textContent = String(bar);
      el.beat.textContent = String(beat);
      el.counter.setAttribute('aria-label', t('counter.now', { bar, beat }));
      renderBeats(position?.beats ?? 0, position?.beat ?? 0);
      if (transport === 'playing') seenPlaying = true;
      const stopped = t(seenPlaying ? 'transport.stopped' : 'transport.waiting');
      const label =
        transport === 'playing'
          ? t('transport.playing', { tempo: String(tempo) })
          : transport === 'paused'
            ? t('transport.paused')
            : stopped;
      setText(el.transport, transport ? label : '');
      const bars = score?.bars;
      if (bars && position) {
        // The beat on screen counts as reached, so the line is full on the piece's last beat.
        const fraction = Math.min(1, Math.max(0, (position.bar - 1 + position.beat / (position.beats || 1)) / bars));
        el.fill.style.transform = `scaleX(${fraction})`;
        setText(el.progressLabel, t('progress.bar', { bar: position.bar, bars }));
      }
      // The pulse: within three flashes a second, none with reduced motion (flash-limit.js).
      const playing = transport === 'playing' && typeof position?.at === 'number';
      if (playing && flashes.flash({ beat: position.beat, at: position.at, bpm: tempo })) pulse(el.counter);
      el.counter.classList.toggle('downbeat', position?.beat === 1);
      if (playing) haptics.beat({ beat: position.beat, at: position.at });
    },
    /** @param {Record<string, any>} view */
    view(view) {
      const v = view ?? {};
      setText(el.instruction, typeof v.instruction === 'string' ? v.instruction : '');
      setText(el.text, typeof v.text === 'string' ? v.text : '');
      const ink = isColour(v.color) ? textOn(v.color) : null;
      stageInk = ink ? { color: v.color, ink } : null;
      stageColour.set(stageInk);
      // The composer's words are spoken when they change, at most once every 2 s (the latest wins).
      const said = [el.text.textContent, el.instruction.textContent].filter(Boolean).join('. ');
      if (said && said !== lastSaid) say(said, { kind: 'stage' });
      lastSaid = said;
      let src = '';
      if (typeof v.image === 'string') {
        const url = new URL(v.image, base);
        if (url.protocol === 'http:' || url.protocol === 'https:') src = url.href;
      }
      if (src) {
        if (el.image.src !== src) el.image.src = src;
        el.image.alt = typeof v.alt === 'string' ? v.alt : t('stage.image');
      }
      el.image.hidden = !src;
      renderTiles(v.data?.tiles);
      el.stage.hidden = !(el.instruction.textContent || el.text.textContent || src || stageInk || !el.tiles.hidden);
    },
    /** @param {{ transport: string | null, live: boolean, estimate: any, error: string }} s */
    connection(s) {
      pill.render(s);
    },
  };
}
