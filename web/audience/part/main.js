// The musicians' part page (docs/how-to/part-pages.md#part-pages): the same state stream, clock sync and
// flywheel as the audience page (../src/*, core/client/*), plus the part's cue table fetched once
// per score from this page's keyed URL. Shows bar:beat with a flash on each beat at its time on
// the synced clock, the section, the countdown in beats to the player's next cue and the cues
// after it, and clicks (Web Audio) at each beat's server time. Keeps going through dropouts the
// way the audience page does: the flywheel computes every beat from the segment.

import { printedBarAt } from '#core/score/printed-bars.js';
import { createStreamTracker } from '#core/client/stream-tracker.js';
import { createClockSync } from '#core/client/clock-sync.js';
import { cuesForPart, upcomingCuesLooped, clickFor, beatsAhead, sectionAt, loopAheadOf } from '#core/client/part-plan.js';
import { followingSegment, fractionalIndexAt } from '#core/client/flywheel.js';
import { stripForPart } from '#core/score/graphic-map.js';
import { clickTime } from '#core/engine/count-in.js';
import { pageNow } from '../src/page-clock.js';
import { PAGE_CLOCK_OPTIONS } from '../src/clock-options.js';
import { createConnection } from '../src/connection.js';
import { resumeOnWake } from '../src/page-wake.js';
import { streamInspector } from '../src/page-inspector.js';
import { createPreciseTimer } from '../src/precise-timer.js';
import { createFlywheelPlan, roundTempo } from '../src/flywheel-plan.js';
import { createWakeLock } from '../src/wake-lock.js';
import { barsAfter } from '#core/client/page-turns.js';
import { createNotationSource } from '../shared/notation-source.js';
import { createNotationView } from '../shared/notation-view.js';
import { createGraphicView } from './graphic-view.js';
import { createPartView } from './part-view.js';
import { createRehearsalView } from './rehearsal-view.js';
import { createClick, CLICK_MODES } from './click.js';
import { startReports } from './report.js';
import { t } from '../src/i18n.js';

/** How far ahead clicks are put on the audio clock (ms). */
const CLICK_HORIZON_MS = 1200;
const LISTED = 5;

// …/part/<key>/: the cue table, the reports, and the audience's own stream and /time mounted under
// the key (local-server/src/routes/part-stream.js), so --max-clients never turns a musician away.
const pageBase = document.baseURI;
const tracker = createStreamTracker();
const clock = createClockSync({ ...PAGE_CLOCK_OPTIONS, schedule: [...PAGE_CLOCK_OPTIONS.schedule] });
const flywheel = createFlywheelPlan();
const view = createPartView();
const notation = createNotationView({ source: createNotationSource({ base: pageBase }) });
const graphic = createGraphicView({ before: /** @type {Element} */ (document.getElementById('follow')), now: graphicIndexNow });
const rehearsal = createRehearsalView({ countInDots: view.countInDots });
const click = createClick({ toLocal: (s) => clock.toLocal(s) });
const timer = createPreciseTimer(pageNow);
// The screen stays on from the tap that picks a part (a user gesture: the keep-awake video needs one).
const wakeLock = createWakeLock({ video: /** @type {HTMLVideoElement} */ (document.getElementById('keep-awake')) });

/** @type {import('#core/score/part-cues.js').PartCueTable | null} */
let table = null;
/** @type {string | null} */
let partId = null;
/** @type {import('#core/score/part-cues.js').PartCue[]} */
let cues = [];
/** @type {typeof CLICK_MODES[number]} */
let clickMode = 'off';
let segmentKey = '';
let refused = false;
/** The last thing shown, so a new part or cue table redraws at once. */
let shown = /** @type {{ index: number, bar: number, beat: number, beats: number } | null} */ (null);
/** The rehearsal loop as counted from the beat shown (core/client/part-plan.js loopAheadOf), or null. */
let loopNow = /** @type {ReturnType<typeof loopAheadOf>} */ (null);
const displays = [];
/** The count-in clicks shown (docs/how-to/rehearse.md#rehearsing), for the tests. */
const countIns = [];

function refuse() {
  refused = true;
  clickMode = 'off';
  click.cancelFrom(-Infinity);
  view.refused(t('part.refused'));
}

async function loadTable() {
  try {
    const res = await fetch(new URL('parts.json', pageBase), { cache: 'no-store' });
    if (res.status === 403) return refuse();
    if (!res.ok) return;
    table = await res.json();
  } catch {
    return; // offline: the next epoch (or reload) fetches it
  }
  const t = /** @type {import('#core/score/part-cues.js').PartCueTable} */ (table);
  view.picker(t.parts, pick);
  const wanted = partId ?? decodeURIComponent(location.hash.slice(1));
  if (wanted === '*' || t.parts.some((p) => p.id === wanted)) pick(wanted);
  else {
    partId = null;
    view.showPicker(true);
  }
}

/** @param {string} id */
function pick(id) {
  if (!table || refused) return;
  partId = id;
  wakeLock.enable();
  cues = cuesForPart(table.cues, id);
  if (location.hash.slice(1) !== id) history.replaceState(null, '', `#${encodeURIComponent(id)}`);
  const name = id === '*' ? t('part.all') : (table.parts.find((p) => p.id === id)?.name ?? id);
  view.titles(name, table.score.title);
  view.showPicker(false);
  if (table.score.notation) notation.load(id, table.score.bars);
  else notation.clear();
  graphic.show(stripForPart(table.graphic ?? [], id === '*' ? 'all' : id), pageBase);
  if (shown) {
    view.cues(upcomingCuesLooped(cues, shown.index, LISTED, loopNow), printedOf);
    // The position may have been drawn before the table (and its printed bar numbers) arrived.
    view.position(shown, { flash: false, printed: printedOf(shown.bar) });
  }
  reports.now();
}

/**
 * The fractional beat sounding now, for the graphic score's strip (graphic-view.js): from the
 * segment while playing (the loop's next pass once it has begun), the still position otherwise.
 * @returns {number | null}
 */
function graphicIndexNow() {
  const lean = flywheel.state();
  if (!lean) return null;
  const segment = lean.transport === 'playing' ? lean.segment : null;
  if (!segment) return lean.position?.index ?? null;
  const serverNow = clock.toServer(pageNow());
  const then = followingSegment(segment);
  const active = then && serverNow >= then.at ? then : segment;
  return fractionalIndexAt(active, serverNow) ?? active.index;
}

/** Names a segment (epoch, anchor, tempo): a click is keyed by it and its beat. */
const keyOf = (segment) => `${tracker.epoch()}|${segment.index}|${segment.at}|${segment.bpm}`;

/** A new state: the flywheel takes the segment; a still show (stopped, paused) is shown as it is. */
function onApplied(envelope, outcome) {
  const state = tracker.state();
  if (!state) return;
  const serverNow = clock.toServer(pageNow());
  if (outcome.epochChanged) {
    click.cancelFrom(-Infinity);
    loadTable(); // a new epoch may be a new score
  }
  const { lean, segment, continued } = flywheel.update(state, outcome.epochChanged);
  const wasCounting = rehearsal.countIn();
  rehearsal.update(lean, serverNow);
  if (wasCounting && !rehearsal.countIn()) click.cancelFrom(serverNow); // a cancelled count-in's clicks
  const key = segment ? keyOf(segment) : '';
  if (key !== segmentKey && !continued) {
    flywheel.resetShown();
    click.cancelFrom(serverNow); // seek, tempo, pause, stop: the clicks ahead are no longer right
  }
  segmentKey = key;
  if (!segment && lean.position) {
    const p = lean.position;
    loopNow = loopAheadOf(lean.loop, !lean.loop?.releasing, 0);
    const still = { index: p.index, bar: p.bar, beat: p.beat, beats: p.beats };
    view.position(still, { flash: false, printed: printedOf(still.bar) });
    notation.follow(still, barsAfter(flywheel.state(), still, table?.score.bars ?? 0, serverNow), false);
    view.context(lean.section, lean.transport === 'paused' ? t('part.paused') : lean.transport === 'stopped' ? t('part.stopped') : '');
    showCues(still);
  }
  plan();
}

/**
 * The printed bar (issue 40 item 16: musicians count printed bars), for a score that has printed
 * numbers; null otherwise. @param {number} bar
 */
function printedOf(bar) {
  return (table && printedBarAt(table.score.printedBars, bar, table.score.bars)) || null;
}

function showCues(beat) {
  shown = beat;
  if (partId !== null) view.cues(upcomingCuesLooped(cues, beat.index, LISTED, loopNow), printedOf);
}

/** The count-in's clicks within the click horizon, on the audio clock (any click mode but off). */
function scheduleCountIn(serverNow) {
  const counting = rehearsal.countIn();
  if (!counting || clickMode === 'off' || !click.ready() || partId === null) return;
  for (let n = 1; n <= counting.beats; n += 1) {
    const at = clickTime(counting, n);
    if (at <= serverNow || at > serverNow + CLICK_HORIZON_MS) continue;
    const inBar = ((n - 1) % counting.perBar) + 1;
    click.schedule(`countin|${counting.at}|${n}`, { index: -n, bar: 0, beat: inBar, at }, { accent: inBar === 1, countIn: inBar });
  }
}

/** Show the beat sounding now, put the next clicks on the audio clock, sleep until the next beat. */
function plan() {
  timer.cancel();
  const local = pageNow();
  const serverNow = clock.toServer(local);
  const beat = flywheel.beat(serverNow);
  const lean = flywheel.state();
  if (beat.active) loopNow = loopAheadOf(beat.loop, Boolean(followingSegment(beat.active)), beat.pass);
  rehearsal.context(loopNow && { pass: loopNow.pass, of: loopNow.of }, lean?.tempoPercent);
  const countInNext = rehearsal.drawCountIn(serverNow);
  const countInShown = Number(document.getElementById('countin')?.dataset.n ?? 0);
  if (rehearsal.countIn() && countInShown && countIns.at(-1)?.n !== countInShown) {
    const dots = [...(document.getElementById('beats')?.children ?? [])];
    countIns.push({
      n: countInShown,
      text: document.getElementById('countin')?.textContent,
      dots: `${dots.filter((d) => d.classList.contains('on')).length}/${dots.length}`,
      counting: document.getElementById('beats')?.classList.contains('counting'),
      server: serverNow,
      of: rehearsal.countIn()?.beats,
    });
  }
  scheduleCountIn(serverNow);
  if (beat.show) {
    const b = beat.show;
    view.position(b, { flash: true, printed: printedOf(b.bar) });
    notation.follow(b, barsAfter(flywheel.state(), b, table?.score.bars ?? 0, serverNow), true);
    // The section from the cue table, at the beat it starts (through outages too); the state's otherwise.
    view.context(table ? sectionAt(table.sections ?? [], b.index) : lean?.section, t('part.bpm', { bpm: roundTempo(b.bpm) }));
    rehearsal.context(loopNow && { pass: loopNow.pass, of: loopNow.of }, lean?.tempoPercent);
    showCues(b);
    const next = partId === null ? null : (upcomingCuesLooped(cues, b.index, 1, loopNow)[0] ?? null);
    // What the tests compare with the server: when this beat went on screen, and the countdown it showed.
    const countdown = document.getElementById('countdown')?.textContent ?? null;
    const section = document.getElementById('section')?.textContent ?? null;
    displays.push({
      index: b.index,
      bar: b.bar,
      beat: b.beat,
      at: b.at,
      server: serverNow,
      local,
      part: partId,
      next: next ? next.i : null,
      inBeats: next ? next.inBeats : null,
      countdown,
      section,
      pass: loopNow ? loopNow.pass : null,
      epoch: tracker.epoch(),
    });
    if (displays.length > 4000) displays.shift();
  }
  const segment = lean && lean.transport === 'playing' ? lean.segment : null;
  if (segment && beat.nextAt !== null && clickMode !== 'off' && click.ready() && partId !== null) {
    // Beats of the loop's next pass (`segment.then`) are keyed by that segment, as they will be when it arrives.
    const then = followingSegment(segment);
    for (const b of beatsAhead(segment, serverNow, CLICK_HORIZON_MS)) {
      const kind = clickFor(b, cues, loopNow);
      if (clickMode === 'countin' && kind.countIn === null) continue;
      click.schedule(`${then && b.at >= then.at ? keyOf(then) : segmentKey}|${b.index}`, b, kind);
    }
  }
  const wake = [beat.nextAt, countInNext].filter((x) => x !== null);
  if (wake.length) timer.at(clock.toLocal(Math.min(...wake)) + 0.01, plan);
}

// A better clock estimate moves every beat's local time: re-plan, and show the new quality.
const onClock = () => {
  plan();
  status();
};
const connection = createConnection({ base: pageBase, stream: 'lean', tracker, clock, onApplied, onClock, onStatus: () => status() });

function status() {
  view.connection({ ...connection.status(), estimate: clock.estimate() });
}

const reports = startReports({
  base: pageBase,
  read: () => {
    if (partId === null || refused) return null;
    const e = clock.estimate();
    return {
      part: partId,
      rtt: e ? e.rtt : null,
      bound: e ? e.uncertainty : null,
      transport: connection.status().transport,
      click: clickMode !== 'off',
    };
  },
  onRefused: refuse,
});

document.getElementById('click')?.addEventListener('click', async () => {
  const next = CLICK_MODES[(CLICK_MODES.indexOf(clickMode) + 1) % CLICK_MODES.length];
  // Unlocked inside the tap: browsers start audio only from a user gesture.
  if (next !== 'off' && !(await click.unlock())) {
    view.clickMode('off');
    clickMode = 'off';
    return;
  }
  clickMode = next;
  view.clickMode(clickMode);
  if (clickMode === 'off') click.cancelFrom(-Infinity);
  else if (clickMode === 'countin') click.cancelFrom(clock.toServer(pageNow())); // drop plain beats already queued
  reports.now();
  plan();
});
document.getElementById('change-part')?.addEventListener('click', () => {
  partId = null;
  click.cancelFrom(-Infinity);
  notation.clear();
  graphic.show(null, pageBase);
  view.showPicker(true);
});

resumeOnWake(connection);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') wakeLock.reacquire();
  else wakeLock.hidden();
});

view.clickMode(clickMode);
connection.start();
loadTable();
status();

// A small, read-only window into the page for the browser tests and for debugging on a tablet.
/** @type {any} */ (window).__part = {
  ...streamInspector({ tracker, flywheel, clock, connection }),
  part: () => partId,
  cues: () => cues.slice(),
  table: () => table,
  displays: () => displays.slice(),
  countIns: () => countIns.slice(),
  clicks: () => click.scheduled(),
  reportId: () => reports.id,
  refused: () => refused,
  screenOn: () => wakeLock.status(),
  notation: () => notation.inspect(),
  graphic: () => graphic.inspect(),
};
