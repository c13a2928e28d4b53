// Replaying a performance record in the console (docs/how-to/record-and-replay.md#replaying-a-record): the record's
// entries are fetched page by page from the control listener, then played on this page's own
// clock at 1×, 4× or 16×, or jumped to any moment, into the preview (replay-view.js). Nothing is
// sent anywhere: the audience and the musicians' OSC targets receive nothing from a replay.

import { $, setText, duration } from './dom.js';
import { createReplayPlayer } from './replay-player.js';
import { createReplayView } from './replay-view.js';
import { createReplayMedia } from './replay-media.js';

const TICK_MS = 20;
const SPEEDS = [1, 4, 16];

/**
 * Fetch every entry of a record, a page at a time, saying how far it got.
 * @param {{ get: (path: string) => Promise<any> }} api
 * @param {string} id
 */
async function loadEntries(api, id) {
  const entries = [];
  let from = 0;
  while (from !== null) {
    const page = await api.get(`/api/records/${encodeURIComponent(id)}/entries?from=${from}`);
    entries.push(...page.entries);
    setText($('replay-state'), `loading ${entries.length.toLocaleString()} / ${page.total.toLocaleString()}`);
    from = page.next;
  }
  return entries;
}

/** Show which speed button is on. */
function pressSpeed(speed) {
  for (const b of document.querySelectorAll('[data-replay-speed]'))
    b.setAttribute('aria-pressed', String(Number(/** @type {HTMLElement} */ (b).dataset.replaySpeed) === speed));
}

/** @param {{ api: { token: string, get: (path: string) => Promise<any> } }} deps */
export function createReplayPanel({ api }) {
  const card = $('replay');
  const seek = /** @type {HTMLInputElement} */ ($('replay-seek'));
  const playButton = $('replay-play');
  const media = createReplayMedia({ token: api.token, image: /** @type {HTMLImageElement} */ ($('replay-img')), label: $('replay-image') });
  const view = createReplayView({ onJump: (t) => jump(t), media });
  /** @type {ReturnType<typeof createReplayPlayer> | null} */
  let player = null;
  let loading = 0;
  // The replay clock: record time `from` at performance.now() `wall`, moving `speed` times as fast.
  let clock = { from: 0, wall: 0, speed: 1, running: false };
  let timer = 0;
  /** What the browser tests read (window.__tuttiReplay): each view shown, at what record and page time. */
  const shownViews = [];
  let lastView = null;

  const now = () => (clock.running ? clock.from + (performance.now() - clock.wall) * clock.speed : clock.from);

  /** @param {boolean} [jumped] this tick lands on a jump: nothing sounds */
  function tick(jumped = false) {
    if (!player) return;
    const t = Math.min(now(), player.end);
    player.advanceTo(t);
    const m = player.moment();
    if (m.view !== lastView) {
      lastView = m.view;
      shownViews.push({ text: m.view?.text ?? null, viewAt: m.view?.at ?? null, t, wall: performance.now() });
    }
    view.render(m, { live: !jumped && clock.running && clock.speed === 1 });
    seek.value = String(Math.round(t - player.start));
    setText($('replay-clock'), `${duration(t - player.start)} / ${duration(player.end - player.start)} · ${clock.speed}×`);
    if (t >= player.end) pause(false); // the record's last sound rings out
  }

  function play() {
    if (!player) return;
    if (now() >= player.end) {
      clock.from = player.start; // from the top, without the end's last sound
      media.stop();
    }
    clock = { ...clock, from: now(), wall: performance.now(), running: true };
    clearInterval(timer);
    timer = window.setInterval(() => tick(), TICK_MS);
    setText(playButton, 'Pause');
    tick();
  }

  /** @param {boolean} [silence] stop the sounds too (not when the record simply ends) */
  function pause(silence = true) {
    if (silence) media.stop();
    clock = { ...clock, from: now(), running: false };
    clearInterval(timer);
    setText(playButton, 'Play');
  }

  /** @param {number} t record time */
  function jump(t) {
    if (!player) return;
    clock = { ...clock, from: Math.max(player.start, Math.min(player.end, t)), wall: performance.now() };
    lastView = undefined; // the view after a jump is logged as shown, even if it is the one before
    media.stop();
    tick(true);
  }

  function setSpeed(speed) {
    media.stop();
    clock = { ...clock, from: now(), wall: performance.now(), speed };
    pressSpeed(speed);
    tick();
  }

  /**
   * Open a record in the replay card and play it from the top at the chosen speed.
   * @param {{ id: string }} record
   */
  async function open(record) {
    const mine = ++loading;
    pause();
    player = null;
    media.open(record.id);
    card.hidden = false;
    setText($('replay-error'), '');
    setText($('replay-title'), record.id);
    card.scrollIntoView({ block: 'nearest' });
    try {
      const entries = await loadEntries(api, record.id);
      if (mine !== loading) return;
      player = createReplayPlayer(entries);
      view.reset();
      media.prefetch(player.media);
      seek.max = String(Math.round(player.end - player.start));
      shownViews.length = 0;
      lastView = null;
      setText($('replay-state'), `${entries.length.toLocaleString()} entries`);
      clock = { ...clock, from: player.start, wall: performance.now() };
      play();
    } catch (err) {
      setText($('replay-error'), `Could not replay ${record.id}: ${err.message}`);
    }
  }

  playButton.addEventListener('click', () => (clock.running ? pause() : play()));
  for (const speed of SPEEDS) $(`replay-speed-${speed}`).addEventListener('click', () => setSpeed(speed));
  seek.addEventListener('input', () => player && jump(player.start + Number(seek.value)));
  $('replay-close').addEventListener('click', () => {
    loading += 1;
    pause();
    media.close();
    player = null;
    card.hidden = true;
  });
  /** @type {any} */ (window).__tuttiReplay = {
    views: () => shownViews.slice(),
    media: () => media.status(),
    status: () => ({
      loaded: player !== null,
      running: clock.running,
      speed: clock.speed,
      t: player ? now() : null,
      start: player?.start ?? null,
    }),
  };
  return { open };
}
