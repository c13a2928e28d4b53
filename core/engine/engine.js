// The show engine: transport (play/pause/stop/seek), tempo override, and lookahead. What the
// score says (cues, views, sections, OSC addresses) is looked up in its plan (score-plan.js).
// Time comes from an injected monotonic-ish clock (`now`) and one injected timer; beat times are
// computed from an anchor and the timeline, never accumulated, so they cannot drift. Every beat
// is published `lookaheadMs` before it sounds, carrying the exact time it sounds (`position.at`).
//
// This file only wires the engine's parts (docs/explanation/architecture.md#the-tree): the position record
// and its one reset (show-position.js), the clock that publishes beats (beat-clock.js,
// publish-beat.js), the transport (engine-transport.js), the tempo (engine-tempo.js), the branch
// and a loop's pass (engine-branch.js), rehearsal (rehearsal-controls.js), crash resume
// (engine-resume.js) and the state and status (engine-status.js); what it accepts is
// engine-limits.js. Each part owns its state and sees the others through one record
// (engine-context.js).

import { planScore } from './score-plan.js';
import { createFlywheelWindow } from './flywheel-window.js';
import { createRehearsalControls } from './rehearsal-controls.js';
import { createShowPosition } from './show-position.js';
import { createBeatClock } from './beat-clock.js';
import { createTransportState, createTransportMoves } from './engine-transport.js';
import { createTempo } from './engine-tempo.js';
import { createBranch } from './engine-branch.js';
import { createResume } from './engine-resume.js';
import { createLiveEdit } from './engine-live-edit.js';
import { createStatusView } from './engine-status.js';
import { checkStartBeat, checkLoopRange } from './engine-limits.js';

export { DEFAULT_LOOKAHEAD_MS, MIN_BPM, MAX_BPM, MIN_TEMPO_PERCENT, MAX_TEMPO_PERCENT, EngineError } from './engine-limits.js';
import { DEFAULT_LOOKAHEAD_MS } from './engine-limits.js';

/**
 * @typedef {'stopped' | 'playing' | 'paused'} Transport
 * @typedef {{ bar: number, beat: number, beats: number, at: number, index: number }} AudiencePosition
 * @typedef {{ bar: number, beat: number, beats: number, bpm: number, at: number, index: number }} BeatEvent
 * @typedef {{ address: string, args: Array<number | string | boolean>, at: number, cue: number }} OscCueEvent
 *
 * @typedef {object} EngineOptions
 * @property {any} score validated, normalized score (core/score/validate.js)
 * @property {() => number} now clock in ms (server wall clock; must not jump backwards in practice)
 * @property {(fn: () => void, ms: number) => unknown} setTimer
 * @property {(handle: unknown) => void} clearTimer
 * @property {number} [lookaheadMs] how long before a beat sounds it is published (default 300)
 * @property {(state: Record<string, unknown>) => void} [onState] every audience state change
 * @property {(beat: BeatEvent) => void} [onBeat] every beat, ahead of time
 * @property {(cue: OscCueEvent) => void} [onOscCue] OSC cues, ahead of time
 * @property {(transport: Transport) => void} [onTransport] every transport change
 * @property {(click: { n: number, of: number, at: number } | { cancelled: true, reason: string }) => void} [onCountIn] a count-in's clicks, ahead of time, or its cancellation
 */

/**
 * The parts' shared record, with every part built and wired, and the state and status projected
 * from it; the score is loaded by the caller.
 * @param {EngineOptions} options
 */
function wireParts(options) {
  const noop = () => {};
  const events = {
    onState: options.onState ?? noop,
    onBeat: options.onBeat ?? noop,
    onOscCue: options.onOscCue ?? noop,
    onTransport: options.onTransport ?? noop,
    onCountIn: options.onCountIn ?? noop,
  };
  /** @type {import('./engine-context.js').ShowContext} */
  const show = {
    now: options.now,
    lookaheadMs: options.lookaheadMs ?? DEFAULT_LOOKAHEAD_MS,
    setTimer: options.setTimer,
    clearTimer: options.clearTimer,
    events,
    loaded: undefined, // load()
    at: createShowPosition((index) => show.loaded.plan.viewAt(index)),
    transport: createTransportState(events.onTransport),
    tempo: undefined,
    rehearsal: undefined,
    clock: undefined,
    branch: undefined,
    emitState: () => events.onState(view.state()),
  };
  show.tempo = createTempo(show);
  show.clock = createBeatClock(show);
  show.branch = createBranch(show);
  show.rehearsal = createRehearsalControls(rehearsalMoves(show));
  const view = createStatusView(show);
  return { show, view };
}

/**
 * What the rehearsal controls may do to the show (rehearsal-controls.js, EngineMoves).
 * @param {import('./engine-context.js').ShowContext} show
 */
function rehearsalMoves(show) {
  const { at, transport } = show;
  return {
    now: show.now,
    lookaheadMs: show.lookaheadMs,
    setTimer: show.setTimer,
    clearTimer: show.clearTimer,
    onCountIn: show.events.onCountIn,
    timeline: () => show.loaded.timeline,
    tempoFactor: () => show.tempo.factor,
    playing: () => transport.playing(),
    stand(index) {
      show.clock.cancel();
      at.moveTo(index, show.now(), index);
      if (transport.playing()) transport.set('paused');
    },
    play(index, time) {
      if (transport.playing()) at.showFrom(index);
      else at.moveTo(index, show.now(), index);
      show.clock.startAt(index, time);
    },
    dropJump: () => {
      at.jump = null;
    },
    refreshFlywheel: () => show.loaded.flywheel.refresh(show.tempo.factor),
    emitState: () => show.emitState(),
  };
}

/**
 * Load `nextScore` into the show: a new plan and flywheel, stopped at beat 0 at the written tempo,
 * any count-in or loop forgotten. Publishes nothing.
 * @param {import('./engine-context.js').ShowContext} show
 * @param {any} nextScore
 */
function loadScore(show, nextScore) {
  show.clock.cancel();
  show.rehearsal.clear('a new score was loaded');
  const plan = planScore(nextScore);
  const flywheel = createFlywheelWindow({ plan, timeOfBeat: show.clock.timeOfBeat, loop: show.rehearsal.bounds });
  const { score, timeline, assets, cueIndex } = plan;
  show.loaded = { plan, score, timeline, assets, cueIndex, flywheel };
  show.transport.value = 'stopped'; // the public load() tells onTransport itself
  show.tempo.reset();
  show.at.moveTo(0, show.now(), 0);
}

/**
 * The engine's rehearsal entry points (docs/how-to/rehearse.md#rehearsing): checked here, run by the
 * rehearsal controls (rehearsal-controls.js).
 * @param {import('./engine-context.js').ShowContext} show
 */
function rehearsalEntryPoints(show) {
  const { rehearsal } = show;
  return {
    /**
     * Start from beat `index` (docs/how-to/rehearse.md#rehearsing), after a count-in of `countInBeats` clicks
     * at the tempo of that beat (0: at once, as a seek and play): rehearsal-controls.js.
     * @param {number} index
     * @param {{ countInBeats?: number, audience?: boolean }} [startOptions]
     */
    startFrom(index, startOptions) {
      checkStartBeat(show.loaded.timeline, index);
      rehearsal.startFrom(index, startOptions);
    },
    /**
     * Stop a running count-in; the show stays where it stood.
     * @param {string} reason
     * @returns {boolean} whether one was running
     */
    cancelCountIn(reason) {
      if (!rehearsal.cancelCountIn(reason)) return false;
      show.emitState();
      return true;
    },
    /**
     * Loop beats `start` up to `end` (not included) `passes` times, or until released (null); the
     * loop wins over a pending branch.
     * @param {{ start: number, end: number, passes?: number | null }} range
     */
    setLoop({ start, end, passes = null }) {
      checkLoopRange(show.loaded.timeline, { start, end });
      rehearsal.setLoop({ start, end, passes });
    },
    /**
     * Leave the loop at the end of the pass being played.
     * @returns {boolean} whether a loop was set
     */
    releaseLoop: () => rehearsal.releaseLoop(),
    /** The pass of the loop being played (1 on the first), or null when no loop is set. */
    loopPass: () => rehearsal.loopPass(),
  };
}

/**
 * Create a show engine for one score. Call `dispose()` before dropping it.
 * @param {EngineOptions} options
 */
export function createShowEngine(options) {
  const { show, view } = wireParts(options);
  const { transport, tempo, clock, branch } = show;
  const moves = createTransportMoves(show);
  const resume = createResume(show);
  const liveEdit = createLiveEdit(show);
  loadScore(show, options.score);

  return {
    play: moves.play,
    pause: moves.pause,
    stop: moves.stop,
    seek: moves.seek,
    /**
     * Override the tempo: the written tempo map is scaled so the current beat plays at `bpm`
     * (ramps keep their shape). `null` returns to the written tempo.
     * @param {number | null} bpm
     */
    setTempo: (bpm) => tempo.setBpm(bpm),
    /**
     * A rehearsal tempo: the written tempo map scaled to `percent` % (docs/how-to/rehearse.md#rehearsing).
     * @param {number} percent
     */
    setTempoPercent: (percent) => tempo.setPercent(percent),
    ...rehearsalEntryPoints(show),
    playFrom: moves.playFrom,
    /**
     * Replace the score; the transport stops. Publishes no state: the caller starts a new
     * epoch with a snapshot of state() (local-server/src/show/show.js).
     */
    load(nextScore) {
      loadScore(show, nextScore);
      show.events.onTransport('stopped');
    },
    /**
     * Swap in an edited score without moving the show or sending a cue twice (engine-live-edit.js).
     * @param {any} nextScore validated, normalized
     * @param {{ check?: boolean }} [options] `check`: only say whether it could be applied now
     * @returns {string | null} why it cannot be applied (nothing changed), or null when applied
     */
    applyLive: liveEdit.applyLive,
    /** What a restarted server needs to carry on where this one was (engine-resume.js). */
    resumePoint: resume.resumePoint,
    /**
     * Why a resume point cannot apply to this score (out of range, another score), or null.
     * @param {any} point
     * @returns {string | null}
     */
    resumeProblem: resume.resumeProblem,
    /**
     * Carry on from a resume point saved by another process. While it was playing, the show
     * continues at the beat that should be sounding now, as if it had never stopped.
     * @param {any} point a value from resumePoint(), possibly read back from disk
     * @returns {boolean} whether the point applied to this score
     */
    resumeFrom: resume.resumeFrom,
    /**
     * When beat `index` sounds (server ms) while playing, at the current anchor and tempo; null
     * when not playing. Beats past the end extend the last beat's length.
     * @param {number} index
     * @returns {number | null}
     */
    beatTime: (index) => (transport.playing() ? clock.timeOfBeat(index) : null),
    /**
     * Branch (docs/reference/score-format.md#prompts-and-branches): at the first bar line not yet published
     * (beats go out one lookahead ahead), play beat `index` instead and carry on from there.
     * Only while playing and no rehearsal loop is set; a later call replaces an earlier one, and a
     * seek, stop or score load cancels it.
     * @param {number} index the beat to jump to (a section's first beat)
     * @returns {{ from: number, bar: number, at: number } | null} the bar line replaced and when it sounds, or null (not playing, no bar line left)
     */
    jumpAtNextBar: (index) => branch.jumpAtNextBar(index),
    /**
     * The first bar line not yet published, while playing (the beat index), or null.
     * @returns {number | null}
     */
    nextBarLine: () => (transport.playing() ? branch.nextBarLine() : null),
    state: view.state,
    status: view.status,
    /** The timeline of the loaded score (for seeking by section, progress, tests). */
    timeline: () => show.loaded.timeline,
    /** The loaded score. */
    score: () => show.loaded.score,
    dispose() {
      clock.cancel();
    },
  };
}
