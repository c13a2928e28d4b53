// The show engine: transport (play/pause/stop/seek), tempo override, and lookahead. What the
// score says (cues, views, sections, OSC addresses) is looked up in its plan (score-plan.js).
// Time comes from an injected monotonic-ish clock (`now`) and one injected timer; beat times are
// computed from an anchor and the timeline, never accumulated, so they cannot drift. Every beat
// is published `lookaheadMs` before it sounds, carrying the exact time it sounds (`position.at`).

import { viewPatch, mergeView, mediaUrl } from './audience-view.js';
import { resumePointProblem } from './resume-point.js';
import { planScore } from './score-plan.js';
import { createFlywheelWindow } from './flywheel-window.js';
import { createRehearsalControls } from './rehearsal-controls.js';

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

export const DEFAULT_LOOKAHEAD_MS = 300;
export const MIN_BPM = 10;
export const MAX_BPM = 400;
/** A rehearsal tempo as a percentage of the written tempo (README.md, "Rehearsing"). */
export const MIN_TEMPO_PERCENT = 10;
export const MAX_TEMPO_PERCENT = 200;

/**
 * Error with a code a caller (control API, OSC-in) can map to a response.
 */
export class EngineError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * Create a show engine for one score. Call `dispose()` before dropping it.
 * @param {EngineOptions} options
 */
export function createShowEngine(options) {
  const { now, setTimer, clearTimer } = options;
  const lookaheadMs = options.lookaheadMs ?? DEFAULT_LOOKAHEAD_MS;
  const noop = () => {};
  const onState = options.onState ?? noop;
  const onBeat = options.onBeat ?? noop;
  const onOscCue = options.onOscCue ?? noop;
  const onTransport = options.onTransport ?? noop;
  const onCountIn = options.onCountIn ?? noop;

  /** @type {import('./score-plan.js').ScorePlan} */
  let plan;
  // The plan's parts used on every beat, by name.
  let score;
  /** @type {import('./timeline.js').Timeline} */
  let timeline;
  /** @type {Map<string, any>} */
  let assets;
  /** @type {import('./cue-index.js').CueIndex} */
  let cueIndex;

  /** @type {Transport} */
  let transport = 'stopped';
  let tempoFactor = 1;
  /**
   * Where the show is: the beat shown in the state and when it sounds (or sounded), the beat to
   * play next from stopped or paused, the next beat to publish while playing, and while playing
   * the anchor (beat `anchor.index` sounds at `anchor.time`). The view and the audio are what
   * playing up to `current` shows; moveTo() sets them all at once.
   */
  const at = {
    current: 0,
    currentAt: 0,
    playFrom: 0,
    nextBeat: 0,
    anchor: { index: 0, time: 0 },
    /** @type {Record<string, unknown>} */
    view: {},
    /** @type {Record<string, unknown> | undefined} */
    audio: undefined,
  };
  let timer = null;
  /** @type {ReturnType<typeof createFlywheelWindow>} while playing: `segment` and `ahead` (flywheel-window.js) */
  let flywheel;
  /** @type {{ from: number, to: number } | null} a branch (core/votes/prompt-plan.js): beat `from` is replaced by beat `to` */
  let jump = null;
  /** @type {number | null} the rehearsal tempo when the operator set one as a percentage */
  let tempoPercent = null;
  // Count-in and loop (README.md, "Rehearsing"), with the moves of the engine they need.
  const rehearsal = createRehearsalControls({
    now,
    lookaheadMs,
    setTimer,
    clearTimer,
    onCountIn,
    timeline: () => timeline,
    tempoFactor: () => tempoFactor,
    playing: () => transport === 'playing',
    stand(index) {
      cancelTimer();
      moveTo(index, now(), index);
      if (transport === 'playing') setTransport('paused');
    },
    play(index, time) {
      if (transport === 'playing') showFrom(index);
      else moveTo(index, now(), index);
      startAt(index, time);
    },
    dropJump: () => {
      jump = null;
    },
    refreshFlywheel: () => flywheel.refresh(tempoFactor),
    emitState: () => emitState(),
  });
  const cancelCountIn = rehearsal.cancelCountIn;

  function load(nextScore) {
    cancelTimer();
    rehearsal.clear('a new score was loaded');
    plan = planScore(nextScore);
    ({ score, timeline, assets, cueIndex } = plan);
    flywheel = createFlywheelWindow({ plan, timeOfBeat, loop: rehearsal.bounds });
    transport = 'stopped';
    tempoFactor = 1;
    tempoPercent = null;
    moveTo(0, now(), 0);
  }

  /**
   * The one reset of the position (load, stop, seek, resume): beat `index` is shown, sounding at
   * `time`, with the view playing up to it would show and no sound; a pending branch is dropped.
   * @param {number} index
   * @param {number} time
   * @param {number} [playFrom] the beat play starts from when stopped or paused
   */
  function moveTo(index, time, playFrom = at.playFrom) {
    at.current = index;
    at.currentAt = time;
    at.playFrom = playFrom;
    showFrom(index);
  }

  /**
   * What the audience sees becomes what playing up to beat `index` shows, with no sound, and a
   * pending branch is dropped: every move in time (moveTo, a seek while playing, the branch).
   * @param {number} index
   */
  function showFrom(index) {
    jump = null;
    at.view = viewAt(index);
    at.audio = undefined;
  }

  const viewAt = (/** @type {number} */ index) => plan.viewAt(index);

  const tempo = () => round3(timeline.bpmAt(at.current) * tempoFactor);

  /** Time a beat sounds while playing, from the anchor (no accumulation). */
  function timeOfBeat(index) {
    return at.anchor.time + (timeline.msAt(index) - timeline.msAt(at.anchor.index)) / tempoFactor;
  }

  /** New anchor (play, seek, tempo, resume, a branch). */
  const reanchorFlywheel = (/** @type {number} */ index) => flywheel.reanchor(index, tempoFactor);

  /** The audience position: bar, beat, beats in the bar, when it sounds, beat index. */
  function position() {
    const pos = timeline.positionOf(at.current);
    return { bar: pos.bar, beat: pos.beat, beats: pos.beats, at: Math.round(at.currentAt), index: at.current };
  }

  function state() {
    const section = plan.sectionAt(at.current);
    /** @type {Record<string, unknown>} */
    const s = {
      score: plan.summary,
      transport,
      tempo: tempo(),
      position: position(),
      view: at.view,
    };
    if (section) s.section = { mark: section.mark, ...(section.name ? { name: section.name } : {}), bar: section.bar };
    if (at.audio) s.audio = at.audio;
    Object.assign(s, rehearsal.state());
    if (tempoPercent !== null) s.tempoPercent = tempoPercent;
    const wheel = transport === 'playing' ? flywheel.state() : null;
    if (wheel) {
      s.segment = wheel.segment;
      s.ahead = wheel.ahead;
    }
    return s;
  }

  const emitState = () => onState(state());

  function cancelTimer() {
    if (timer !== null) clearTimer(timer);
    timer = null;
  }

  function setTransport(next) {
    if (transport === next) return;
    transport = next;
    onTransport(next);
  }

  /** Publish beat `index` (sounding at `at`) and the cues on it. */
  function publishBeat(index, sounds) {
    at.current = index;
    at.currentAt = sounds;
    const pos = timeline.positionOf(index);
    for (const cue of cueIndex.cuesAt(index)) {
      if (cue.view) at.view = { ...mergeView(at.view, viewPatch(cue.view, assets)), at: Math.round(sounds) };
      if (cue.audio) {
        const asset = assets.get(cue.audio.asset);
        if (asset) at.audio = { cue: cue.n, src: mediaUrl(asset), gain: cue.audio.gain ?? 1, at: Math.round(sounds) };
      }
      if (cue.osc) {
        onOscCue({ address: plan.oscAddress(cue.osc), args: cue.osc.args ?? [], at: sounds, cue: cue.n });
      }
    }
    flywheel.advance(index, sounds, tempoFactor);
    onBeat({ bar: pos.bar, beat: pos.beat, beats: pos.beats, bpm: tempo(), at: sounds, index });
    emitState();
  }

  /** Publish every beat due within the lookahead window, then sleep until the next one is. */
  function tick() {
    timer = null;
    if (transport !== 'playing') return;
    const horizon = now() + lookaheadMs;
    while (timeOfBeat(at.nextBeat) <= horizon) {
      const loopBack = rehearsal.jumpAt(at.nextBeat);
      if (loopBack) jump = loopBack; // another pass: taken like a branch
      if (jump && at.nextBeat === jump.from) takeJump();
      if (at.nextBeat >= timeline.totalBeats) break;
      publishBeat(at.nextBeat, timeOfBeat(at.nextBeat));
      at.nextBeat += 1;
    }
    if (at.nextBeat >= timeline.totalBeats) {
      // The piece ends when the last beat has finished sounding.
      const end = timeOfBeat(timeline.totalBeats);
      if (now() >= end) {
        at.playFrom = 0;
        at.currentAt = end;
        setTransport('stopped');
        emitState();
        return;
      }
      timer = setTimer(tick, Math.max(0, end - now()));
      return;
    }
    timer = setTimer(tick, Math.max(0, timeOfBeat(at.nextBeat) - lookaheadMs - now()));
  }

  /**
   * A branch is due: beat `jump.to` sounds when beat `jump.from` would have, and the show goes on
   * from there, as a seek would (the view as playing up to it would show it).
   */
  function takeJump() {
    const { from, to } = /** @type {{ from: number, to: number }} */ (jump);
    // The branch is a seek that lands on the bar line: the beat shown moves when it is published.
    showFrom(to);
    at.anchor = { index: to, time: timeOfBeat(from) };
    at.nextBeat = to;
    reanchorFlywheel(to);
  }

  /** The first beat 1 at or after the next beat to publish, or null when the piece has none left. */
  function nextBarLine() {
    for (let k = at.nextBeat; k < timeline.totalBeats; k += 1) if (timeline.positionOf(k).beat === 1) return k;
    return null;
  }

  /**
   * Start playing from beat `index`, which sounds one lookahead from now (or at `time`).
   * @param {number} index
   * @param {number} [time]
   */
  function startAt(index, time = now() + lookaheadMs) {
    cancelTimer();
    jump = null;
    at.anchor = { index, time };
    at.nextBeat = index;
    reanchorFlywheel(index);
    setTransport('playing');
    tick();
  }

  /**
   * A tempo override as a factor of the written tempo map (ramps keep their shape).
   * @param {number} factor
   */
  function applyTempoFactor(factor) {
    if (transport === 'playing') {
      // Re-anchor on the last published beat so no later beat can land before it.
      at.anchor = { index: at.current, time: at.currentAt };
      tempoFactor = factor;
      reanchorFlywheel(at.current);
      cancelTimer();
      tick();
    } else {
      tempoFactor = factor;
    }
    emitState();
  }

  /**
   * Start from beat `index` (README.md, "Rehearsing"), after a count-in of `countInBeats` clicks
   * at the tempo of that beat (0: at once, as a seek and play): rehearsal-controls.js.
   * @param {number} index
   * @param {{ countInBeats?: number, audience?: boolean }} [options]
   */
  function startFrom(index, options) {
    if (!Number.isInteger(index) || index < 0 || index >= timeline.totalBeats) {
      throw new EngineError('BAD_POSITION', `the start must be a beat of the piece (0 to ${timeline.totalBeats - 1})`);
    }
    rehearsal.startFrom(index, options);
  }

  /**
   * Loop beats `start` up to `end` (not included) `passes` times, or until released (null); the
   * loop wins over a pending branch.
   * @param {{ start: number, end: number, passes?: number | null }} range
   */
  function setLoop({ start, end, passes = null }) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > timeline.totalBeats) {
      throw new EngineError('BAD_RANGE', 'a loop must end after it starts, inside the piece');
    }
    rehearsal.setLoop({ start, end, passes });
  }

  function checkPosition(bar, beat) {
    if (!Number.isInteger(bar) || bar < 1 || bar > timeline.bars) {
      throw new EngineError('BAD_POSITION', `bar must be an integer from 1 to ${timeline.bars}`);
    }
    const beats = timeline.beatsInBar(bar);
    if (!Number.isInteger(beat) || beat < 1 || beat > beats) {
      throw new EngineError('BAD_POSITION', `beat must be an integer from 1 to ${beats} in bar ${bar}`);
    }
    return timeline.indexOf(bar, beat);
  }

  load(options.score);

  function resumeProblem(point) {
    const written = plan.writtenBpmRange();
    return resumePointProblem(point, {
      scoreId: score.id,
      totalBeats: timeline.totalBeats,
      minWrittenBpm: written.min,
      maxWrittenBpm: written.max,
      minBpm: MIN_BPM,
      maxBpm: MAX_BPM,
      now: now(),
    });
  }

  return {
    /** Start or resume playing. */
    play() {
      if (transport === 'playing') return;
      cancelCountIn('play');
      if (at.playFrom >= timeline.totalBeats) at.playFrom = 0;
      startAt(at.playFrom);
    },
    /** Hold the position; play resumes with the next beat. */
    pause() {
      if (cancelCountIn('paused')) emitState();
      if (transport !== 'playing') return;
      cancelTimer();
      jump = null;
      at.playFrom = at.current + 1;
      setTransport('paused');
      emitState();
    },
    /** Stop and return to the start of the piece. */
    stop() {
      cancelTimer();
      const hadRehearsal = rehearsal.clear('stopped');
      const wasStopped = transport === 'stopped' && at.current === 0 && !hadRehearsal;
      moveTo(0, now(), 0);
      setTransport('stopped');
      if (!wasStopped) emitState();
    },
    /**
     * Jump to a bar/beat. While playing, that beat sounds one lookahead from now.
     * @param {number} bar
     * @param {number} [beat]
     */
    seek(bar, beat = 1) {
      const index = checkPosition(bar, beat);
      cancelCountIn('seek');
      rehearsal.movedTo(index);
      if (transport === 'playing') {
        // The beat shown moves when the new beat is published; what it shows changes now.
        showFrom(index);
        startAt(index);
      } else {
        moveTo(index, now(), index);
        emitState();
      }
    },
    /**
     * Override the tempo: the written tempo map is scaled so the current beat plays at `bpm`
     * (ramps keep their shape). `null` returns to the written tempo.
     * @param {number | null} bpm
     */
    setTempo(bpm) {
      if (bpm !== null && (typeof bpm !== 'number' || !Number.isFinite(bpm) || bpm < MIN_BPM || bpm > MAX_BPM)) {
        throw new EngineError('BAD_TEMPO', `bpm must be a number from ${MIN_BPM} to ${MAX_BPM}`);
      }
      const factor = bpm === null ? 1 : bpm / timeline.bpmAt(at.current);
      tempoPercent = null;
      applyTempoFactor(factor);
    },
    /**
     * A rehearsal tempo: the written tempo map scaled to `percent` % (README.md, "Rehearsing").
     * @param {number} percent
     */
    setTempoPercent(percent) {
      if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < MIN_TEMPO_PERCENT || percent > MAX_TEMPO_PERCENT) {
        throw new EngineError('BAD_TEMPO', `percent must be a number from ${MIN_TEMPO_PERCENT} to ${MAX_TEMPO_PERCENT}`);
      }
      const { min, max } = plan.writtenBpmRange();
      if (min * (percent / 100) < MIN_BPM || max * (percent / 100) > MAX_BPM) {
        throw new EngineError('BAD_TEMPO', `${percent} % would take the written tempo outside ${MIN_BPM}–${MAX_BPM} bpm`);
      }
      tempoPercent = percent === 100 ? null : Math.round(percent * 10) / 10;
      applyTempoFactor(percent / 100);
    },
    startFrom,
    /**
     * Stop a running count-in; the show stays where it stood.
     * @param {string} reason
     * @returns {boolean} whether one was running
     */
    cancelCountIn(reason) {
      if (!cancelCountIn(reason)) return false;
      emitState();
      return true;
    },
    /** The beat play() would start from. */
    playFrom: () => (at.playFrom >= timeline.totalBeats ? 0 : at.playFrom),
    setLoop,
    /**
     * Leave the loop at the end of the pass being played.
     * @returns {boolean} whether a loop was set
     */
    releaseLoop: () => rehearsal.releaseLoop(),
    /** The pass of the loop being played (1 on the first), or null when no loop is set. */
    loopPass: () => rehearsal.loopPass(),
    /**
     * Replace the score; the transport stops. Publishes no state: the caller starts a new
     * epoch with a snapshot of state() (local-server/src/show.js).
     */
    load(nextScore) {
      load(nextScore);
      onTransport('stopped');
    },
    /**
     * What a restarted server needs to carry on where this one was: the transport, the anchor
     * (which beat sounds when) and the tempo override. Enough to compute the position at any
     * later time, so it only changes on transport, seek and tempo changes — not every beat.
     */
    resumePoint() {
      return {
        scoreId: score.id,
        transport,
        // While playing, the anchor says everything; leaving the moving beat out keeps the
        // point unchanged from beat to beat, so callers persist it only when it really changes.
        index: transport === 'playing' ? null : at.playFrom,
        shown: transport === 'playing' ? null : at.current,
        anchor: transport === 'playing' ? { ...at.anchor } : null,
        tempoFactor,
        ...rehearsal.resumePart(), // the loop; a running count-in comes back as a pause
        ...(tempoPercent !== null ? { tempoPercent } : {}),
      };
    },
    /**
     * Why a resume point cannot apply to this score (out of range, another score), or null.
     * @param {any} point
     * @returns {string | null}
     */
    resumeProblem,
    /**
     * Carry on from a resume point saved by another process. While it was playing, the show
     * continues at the beat that should be sounding now, as if it had never stopped.
     * @param {any} point a value from resumePoint(), possibly read back from disk
     * @returns {boolean} whether the point applied to this score
     */
    resumeFrom(point) {
      if (resumeProblem(point) !== null) return false;
      const clampIndex = (i) => (Number.isInteger(i) && i >= 0 && i < timeline.totalBeats ? i : 0);
      tempoFactor = point.tempoFactor;
      tempoPercent = point.tempoPercent ?? null;
      point = rehearsal.resume(point); // the loop back, over the passes played meanwhile
      if (point.transport === 'playing' && point.anchor && Number.isFinite(point.anchor.time)) {
        at.anchor = { index: clampIndex(point.anchor.index), time: point.anchor.time };
        const elapsedIndex = timeline.indexAtMs(timeline.msAt(at.anchor.index) + (now() - at.anchor.time) * tempoFactor);
        const next = Math.ceil(elapsedIndex);
        if (next >= timeline.totalBeats) return true; // the piece would have ended: stay stopped
        // Until the next beat is published, the state shows the beat sounding now.
        const shown = Math.max(0, next - 1);
        moveTo(shown, timeOfBeat(shown));
        at.nextBeat = next;
        reanchorFlywheel(shown);
        setTransport('playing');
        tick();
        return true;
      }
      const index = clampIndex(point.index);
      moveTo(clampIndex(point.shown ?? index), now(), index);
      if (point.transport === 'paused') setTransport('paused');
      emitState();
      return true;
    },
    /**
     * When beat `index` sounds (server ms) while playing, at the current anchor and tempo; null
     * when not playing. Beats past the end extend the last beat's length.
     * @param {number} index
     * @returns {number | null}
     */
    beatTime(index) {
      return transport === 'playing' ? timeOfBeat(index) : null;
    },
    /**
     * Branch (scores/README.md, "Prompts and branches"): at the first bar line not yet published
     * (beats go out one lookahead ahead), play beat `index` instead and carry on from there.
     * Only while playing and no rehearsal loop is set; a later call replaces an earlier one, and a
     * seek, stop or score load cancels it.
     * @param {number} index the beat to jump to (a section's first beat)
     * @returns {{ from: number, bar: number, at: number } | null} the bar line replaced and when it sounds, or null (not playing, no bar line left)
     */
    jumpAtNextBar(index) {
      // While a rehearsal loop is set the loop wins: no branch (README.md, "Rehearsing").
      if (rehearsal.loopPass() !== null || transport !== 'playing' || !Number.isInteger(index) || index < 0 || index >= timeline.totalBeats)
        return null;
      const from = nextBarLine();
      if (from === null) return null;
      jump = { from, to: index };
      return { from, bar: timeline.positionOf(from).bar, at: timeOfBeat(from) };
    },
    /**
     * The first bar line not yet published, while playing (the beat index), or null.
     * @returns {number | null}
     */
    nextBarLine: () => (transport === 'playing' ? nextBarLine() : null),
    state,
    status() {
      return {
        transport,
        position: position(),
        tempo: tempo(),
        tempoOverride: tempoFactor !== 1,
        tempoPercent,
        ...rehearsal.status(),
      };
    },
    /** The timeline of the loaded score (for seeking by section, progress, tests). */
    timeline: () => timeline,
    /** The loaded score. */
    score: () => score,
    dispose() {
      cancelTimer();
    },
  };
}
