// The audience page: connect, keep the clock synced, and show every beat, view change and audio
// cue at the moment the server says it happens (its `at`, on the synced clock), not when the
// message happens to arrive. All URLs are relative to the page, so the same build works on the
// local server and on the edge worker.

import { createStreamTracker } from '#core/client/stream-tracker.js';
import { createClockSync } from '#core/client/clock-sync.js';
import { createBeatSchedule } from '#core/client/beat-schedule.js';
import { pageNow } from './page-clock.js';
import { PAGE_CLOCK_OPTIONS } from './clock-options.js';
import { createConnection } from './connection.js';
import { resumeOnWake } from './page-wake.js';
import { streamInspector } from './page-inspector.js';
import { createPreciseTimer } from './precise-timer.js';
import { createView } from './view.js';
import { createScoreView } from './score-view.js';
import { barsAfter } from '#core/client/page-turns.js';
import { createAudioPlayer } from './audio.js';
import { createWakeLock } from './wake-lock.js';
import { registerServiceWorker, cacheMedia } from './service-worker-client.js';
import { createVenueNotice, venueOffline, heldWhileOffline } from './venue-notice.js';
import { createStartingNotice } from './starting-notice.js';
import { createFlywheelPlan, roundTempo } from './flywheel-plan.js';
import { createVotePanel } from './vote-panel.js';
import { createReactionPad } from './reaction-pad.js';
import { createRehearsalScreen } from './rehearsal-screen.js';
import { t } from './i18n.js';

const base = document.baseURI;
const params = new URLSearchParams(location.search);
const tracker = createStreamTracker();
const clock = createClockSync({ ...PAGE_CLOCK_OPTIONS, schedule: [...PAGE_CLOCK_OPTIONS.schedule] });
// Room for the 15–30 s of views sent ahead (a view change per beat at 400 bpm is 200).
const schedule = createBeatSchedule({ limit: 256 });
const flywheel = createFlywheelPlan();
const view = createView({ base });
const scoreView = createScoreView({ base });
const audio = createAudioPlayer({ base, toLocal: (s) => clock.toLocal(s) });
const wakeLock = createWakeLock({ video: /** @type {HTMLVideoElement} */ (document.getElementById('keep-awake')) });
const venueNotice = createVenueNotice();
const startingNotice = createStartingNotice({ toLocal: (s) => clock.toLocal(s), toServer: (l) => clock.toServer(l), now: pageNow });
const rehearsal = createRehearsalScreen();
/** The last frame and view released during rehearsal mode (not shown), shown the moment it ends. */
let heldFrame = null;
let heldView = null;

/** Measurements kept for the connection indicator and the browser tests (window.__tutti). */
const displays = [];
const viewChanges = [];
let lastAudioKey = '';
/** What flywheel frames show besides the beat (from the latest state). */
let frameInfo = { section: undefined, transport: undefined, score: undefined };
let lastSegmentKey = '';
let segmentReceivedAt = 0;
/** Sounds sent ahead, kept so that the Join tap can schedule them. */
let aheadSounds = [];
/** Whether the show has played since the page opened: "stopped" after that is the end of the show. */
let seenPlaying = false;

/** Queue what the new state announces; each item is released at its `at`. */
function onApplied(envelope, outcome, receivedAt) {
  const state = tracker.state();
  if (!state) return;
  if (outcome.epochChanged) {
    schedule.clear();
    audio.cancelFrom(-Infinity);
  }
  const serverNow = clock.toServer(pageNow());
  if (rehearsal.update(state)) rehearsalChanged();
  const { lean, segment, continued, views, sounds } = flywheel.update(heldWhileOffline(state), outcome.epochChanged);
  frameInfo = { section: lean.section, transport: lean.transport, score: lean.score };
  if (rehearsal.on()) view.score(lean.score);
  const segmentKey = segment ? `${tracker.epoch()}|${segment.index}|${segment.at}|${segment.bpm}` : '';
  const reanchored = segmentKey !== lastSegmentKey;
  if (reanchored) {
    // A segment that continues the last one keeps the beat shown (see flywheel-plan.js).
    if (!continued) flywheel.resetShown();
    lastSegmentKey = segmentKey;
    segmentReceivedAt = receivedAt;
  }
  if (!segment) {
    // Not playing (or a server without the flywheel): the state's own position, at its time.
    const p = lean.position;
    // Section, transport and tempo change with the beat they belong to, so they travel with it.
    const frame = { position: p, section: lean.section, transport: lean.transport, tempo: lean.tempo, score: lean.score, receivedAt };
    const at = typeof p?.at === 'number' ? p.at : serverNow;
    schedule.add('position', at, `${tracker.epoch()}|${p?.index}|${at}|${lean.transport}|${lean.tempo}|${lean.score?.title}`, frame);
  } else schedule.clear('position');
  if (views) for (const v of views) schedule.add('view', v.at ?? serverNow, v.key, v.view);
  if (segment) {
    // Sounds sent ahead are scheduled on the audio clock at once (sample-accurate start); a new
    // anchor (seek, tempo) takes back those it no longer announces.
    if (reanchored && !continued) audio.cancelFrom(serverNow);
    if (views) aheadSounds = sounds;
    if (!rehearsal.on()) for (const cue of aheadSounds) audio.play(cue);
  } else if (!rehearsal.on()) {
    const a = /** @type {{ cue: number, src: string, gain?: number, at: number } | undefined} */ (state.audio);
    const audioKey = a ? `${a.cue}@${a.at}` : '';
    if (audioKey !== lastAudioKey) {
      if (a) audio.play(a);
      else audio.cancelFrom(serverNow); // stop/seek took it back
      lastAudioKey = audioKey;
    }
  }
  if (lean.transport !== 'playing' || venueOffline(state) || rehearsal.on()) audio.cancelFrom(serverNow);
  if (lean.transport === 'playing') seenPlaying = true;
  // The screen stays on from the Join tap until the show is over.
  wakeLock.setShowOver(seenPlaying && lean.transport === 'stopped');
  // The edge says the venue is offline or the show has not started (venue-notice.js).
  venueNotice.update(state);
  const quiet = venueOffline(state) || rehearsal.on();
  startingNotice.update(quiet ? {} : state);
  votePanel.update(quiet ? null : state);
  reactionPad.update(quiet ? null : state);
  plan();
}

/** Rehearsal mode ended: show what was held back, and the flywheel's current beat at the next plan(). */
function rehearsalChanged() {
  if (rehearsal.on()) {
    audio.cancelFrom(-Infinity);
    return;
  }
  if (heldView) showView(heldView);
  if (heldFrame) view.frame(heldFrame);
  heldView = null;
  heldFrame = null;
  flywheel.resetShown();
}

const timer = createPreciseTimer(pageNow);

/** A view on screen: its text, colour and image, and the engraved score when it shows one. */
function showView(v) {
  view.view(v);
  scoreView.show(v?.score, frameInfo.score?.bars ?? /** @type {any} */ (tracker.state())?.score?.bars ?? 0);
}

/** The cursor on the engraved score (when a view shows it) follows the beat on screen. */
function followScore(position, playing, serverNow) {
  if (!position) return;
  const where = { index: position.index, bar: position.bar, beat: position.beat, beats: position.beats };
  scoreView.follow(where, barsAfter(flywheel.state(), where, frameInfo.score?.bars ?? 0, serverNow), playing);
}

/** Release what is due now and sleep until the next item's time on the page clock. */
function plan() {
  timer.cancel();
  const local = pageNow();
  const serverNow = clock.toServer(local);
  for (const item of schedule.due(serverNow)) {
    if (item.kind === 'position') {
      const p = item.payload.position;
      if (p) {
        // lead: how long before its time the beat arrived (server ms); shows when the network, not the page, was late.
        const lead = item.at - clock.toServer(item.payload.receivedAt);
        displays.push({
          index: p.index,
          bar: p.bar,
          beat: p.beat,
          at: item.at,
          local,
          server: clock.toServer(local),
          lead,
          epoch: tracker.epoch(),
        });
        if (displays.length > 4000) displays.shift();
      }
      const frame = {
        ...item.payload,
        tempo: typeof item.payload.tempo === 'number' ? roundTempo(item.payload.tempo) : item.payload.tempo,
      };
      if (rehearsal.on()) heldFrame = frame;
      else {
        view.frame(frame);
        followScore(p, item.payload.transport === 'playing', serverNow);
      }
    } else if (item.kind === 'view') {
      // Rehearsal mode: the view is kept current but not shown (nor spoken) until it ends.
      if (rehearsal.on()) {
        heldView = item.payload;
        continue;
      }
      viewChanges.push({ at: item.at, local, server: clock.toServer(local), text: item.payload.text, color: item.payload.color });
      if (viewChanges.length > 200) viewChanges.shift();
      showView(item.payload);
    }
  }
  // The flywheel: the beat sounding now, computed from the segment on the synced clock.
  const beat = flywheel.beat(serverNow);
  if (beat.show && rehearsal.on()) heldFrame = null;
  else if (beat.show) {
    const b = beat.show;
    const lead = b.at - clock.toServer(segmentReceivedAt);
    displays.push({ index: b.index, bar: b.bar, beat: b.beat, at: b.at, local, server: serverNow, lead, epoch: tracker.epoch() });
    if (displays.length > 4000) displays.shift();
    view.frame({ position: b, ...frameInfo, tempo: roundTempo(b.bpm) });
    followScore(b, true, serverNow);
  }
  const queued = schedule.nextAt();
  const next = queued === null ? beat.nextAt : beat.nextAt === null ? queued : Math.min(queued, beat.nextAt);
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
  // The stream without per-beat deltas; `?stream=full` keeps the full one (servers that do not
  // know the parameter send the full stream anyway, and the flywheel runs on it just the same).
  stream: params.get('stream') === 'full' ? 'full' : 'lean',
  onVoted: (reply) => votePanel.onAnswer(reply),
});
// The prompt's buttons (docs/reference/audience-protocol.md#audience-voices), timed on the synced clock.
const votePanel = createVotePanel({
  base,
  toLocal: (s) => clock.toLocal(s),
  serverNow: () => clock.toServer(pageNow()),
  sendOnSocket: (frame) => connection.sendOnSocket(frame),
});
const reactionPad = createReactionPad({
  base,
  serverNow: () => clock.toServer(pageNow()),
  sendOnSocket: (frame) => connection.sendOnSocket(frame),
});

function status() {
  view.connection({ ...connection.status(), estimate: clock.estimate() });
}

/** Score media the state announces (when the server lists it) are kept for the next visit. */
function scoreMedia() {
  const list = /** @type {any} */ (tracker.state())?.score?.media;
  return Array.isArray(list) ? list.map((m) => (typeof m === 'string' ? m : m?.src)).filter((s) => typeof s === 'string') : [];
}

const joinButton = /** @type {HTMLButtonElement} */ (document.getElementById('join'));
joinButton.addEventListener('click', async () => {
  joinButton.disabled = true;
  // First, inside the tap: the keep-awake video may only start from a user gesture.
  wakeLock.enable();
  const ok = await audio.unlock();
  const media = scoreMedia();
  audio.preload(media);
  cacheMedia(media);
  const a = /** @type {{ cue: number, src: string, gain?: number, at: number } | undefined} */ (tracker.state()?.audio);
  if (!rehearsal.on()) {
    if (a) audio.play(a);
    for (const cue of aheadSounds) audio.play(cue);
  }
  joinButton.textContent = t(ok ? 'join.soundOn' : 'join.noSound');
  document.body.classList.add('joined');
  if (ok) document.body.classList.add('sound-on');
});

resumeOnWake(connection);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') wakeLock.reacquire();
  else wakeLock.hidden();
});

connection.start();
registerServiceWorker();
status();

// A small, read-only window into the page for the browser tests and for debugging on a phone.
/** @type {any} */ (window).__tutti = {
  ...streamInspector({ tracker, flywheel, clock, connection }),
  displays: () => displays.slice(),
  viewChanges: () => viewChanges.slice(),
  audio: () => audio.played(),
  wakeLock: () => wakeLock.active(),
  screenOn: () => wakeLock.status(),
  timerEarly: () => timer.early(),
  vote: () => votePanel.status(),
  reaction: () => reactionPad.status(),
  starting: () => startingNotice.text(),
  rehearsal: () => rehearsal.on(),
  score: () => scoreView.inspect(),
};
