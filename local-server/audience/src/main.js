// The audience page: connect, keep the clock synced, and show every beat, view change and audio
// cue at the moment the server says it happens (its `at`, on the synced clock), not when the
// message happens to arrive. All URLs are relative to the page, so the same build works on the
// local server and on the edge worker.

import { createStreamTracker } from '#core/client/stream-tracker.js';
import { createClockSync } from '#core/client/clock-sync.js';
import { createBeatSchedule } from '#core/client/beat-schedule.js';
import { pageNow } from './page-clock.js';
import { createConnection } from './connection.js';
import { createPreciseTimer } from './precise-timer.js';
import { createView } from './view.js';
import { createAudioPlayer } from './audio.js';
import { createWakeLock } from './wake-lock.js';
import { registerServiceWorker, cacheMedia } from './service-worker-client.js';
import { createVenueNotice, venueOffline } from './venue-notice.js';

const base = document.baseURI;
const params = new URLSearchParams(location.search);
const tracker = createStreamTracker();
const clock = createClockSync({
  // Learn fast after joining (or waking): ~9 s of pings, well under the server's flood limit (50 frames/s sustained).
  // Afterwards ping every 3 s while the bound is within 2 ms (a LAN), 4/s while it is wider (jitter).
  schedule: [{ until: 128, every: 70 }],
  targetUncertainty: 2,
  refineEvery: 250,
  steadyEvery: 3000,
});
const schedule = createBeatSchedule();
const view = createView({ base });
const audio = createAudioPlayer({ base, toLocal: (s) => clock.toLocal(s) });
const wakeLock = createWakeLock();
const venueNotice = createVenueNotice();

/** Measurements kept for the connection indicator and the browser tests (window.__tutti). */
const displays = [];
const viewChanges = [];
let lastAudioKey = '';

/** Queue what the new state announces; each item is released at its `at`. */
function onApplied(envelope, outcome, receivedAt) {
  const state = tracker.state();
  if (!state) return;
  if (outcome.epochChanged) {
    schedule.clear();
    audio.cancelFrom(-Infinity);
  }
  const serverNow = clock.toServer(pageNow());
  const p = state.position;
  // Section, transport and tempo change with the beat they belong to, so they travel with it.
  const frame = { position: p, section: state.section, transport: state.transport, tempo: state.tempo, score: state.score, receivedAt };
  const at = typeof p?.at === 'number' ? p.at : serverNow;
  schedule.add('position', at, `${tracker.epoch()}|${p?.index}|${at}|${state.transport}|${state.tempo}|${state.score?.title}`, frame);
  const v = state.view ?? {};
  schedule.add('view', typeof v.at === 'number' ? v.at : serverNow, JSON.stringify(v), v);
  const a = state.audio;
  const audioKey = a ? `${a.cue}@${a.at}` : '';
  if (audioKey !== lastAudioKey) {
    // A cue is scheduled on the audio clock as soon as it is announced (sample-accurate start).
    if (a) audio.play(a);
    else audio.cancelFrom(serverNow); // stop/seek took it back
    lastAudioKey = audioKey;
  }
  if (state.transport !== 'playing' || venueOffline(state)) audio.cancelFrom(serverNow);
  // The edge says the venue is offline or the show has not started (venue-notice.js).
  venueNotice.update(state);
  plan();
}

const timer = createPreciseTimer(pageNow);

/** Release what is due now and sleep until the next item's time on the page clock. */
function plan() {
  timer.cancel();
  const local = pageNow();
  for (const item of schedule.due(clock.toServer(local))) {
    if (item.kind === 'position') {
      const p = item.payload.position;
      if (p) {
        // lead: how long before its time the beat arrived (server ms); shows when the network, not the page, was late.
        const lead = item.at - clock.toServer(item.payload.receivedAt);
        displays.push({ index: p.index, bar: p.bar, beat: p.beat, at: item.at, local, server: clock.toServer(local), lead, epoch: tracker.epoch() });
        if (displays.length > 4000) displays.shift();
      }
      view.frame(item.payload);
    } else if (item.kind === 'view') {
      viewChanges.push({ at: item.at, local, server: clock.toServer(local), text: item.payload.text, color: item.payload.color });
      if (viewChanges.length > 200) viewChanges.shift();
      view.view(item.payload);
    }
  }
  const next = schedule.nextAt();
  // A hair past the target, so float rounding can never leave the item just short of due.
  if (next !== null) timer.at(clock.toLocal(next) + 0.01, plan);
}

const connection = createConnection({
  base,
  tracker,
  clock,
  onApplied,
  // A better clock estimate moves every pending item's local time: re-plan.
  onClock: () => {
    plan();
    status();
  },
  onStatus: () => status(),
  betterRetryMs: Number(params.get('probe')) || undefined,
});

function status() {
  view.connection({ ...connection.status(), estimate: clock.estimate() });
}

/** Score media the state announces (when the server lists it) are kept for the next visit. */
function scoreMedia() {
  const list = tracker.state()?.score?.media;
  return Array.isArray(list) ? list.map((m) => (typeof m === 'string' ? m : m?.src)).filter((s) => typeof s === 'string') : [];
}

const joinButton = /** @type {HTMLButtonElement} */ (document.getElementById('join'));
joinButton.addEventListener('click', async () => {
  joinButton.disabled = true;
  const ok = await audio.unlock();
  wakeLock.enable();
  const media = scoreMedia();
  audio.preload(media);
  cacheMedia(media);
  const a = tracker.state()?.audio;
  if (a) audio.play(a);
  joinButton.textContent = ok ? 'Sound on' : 'Joined (this browser has no sound)';
  document.body.classList.add('joined');
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') {
    connection.resume('visible');
    wakeLock.reacquire();
  }
});
// A frozen page (Page Lifecycle: phone asleep, tab discarded-to-be) gets `resume`, not visibilitychange.
document.addEventListener('resume', () => connection.resume('unfrozen'));
addEventListener('pageshow', (e) => e.persisted && connection.resume('restored'));
addEventListener('online', () => connection.resume('online'));

connection.start();
registerServiceWorker();
status();

// A small, read-only window into the page for the browser tests and for debugging on a phone.
/** @type {any} */ (window).__tutti = {
  state: () => tracker.state(),
  seq: () => tracker.seq(),
  epoch: () => tracker.epoch(),
  counts: () => tracker.counts(),
  clock: () => (clock.estimate() ? { ...clock.estimate(), total: clock.count() } : null),
  toServer: (local) => clock.toServer(local),
  connection: () => connection.status(),
  log: () => connection.log(),
  displays: () => displays.slice(),
  viewChanges: () => viewChanges.slice(),
  audio: () => audio.played(),
  wakeLock: () => wakeLock.active(),
  timerEarly: () => timer.early(),
};
