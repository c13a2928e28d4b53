// The engine's clock (core/engine/engine.js): one timer that wakes one lookahead before the next
// beat sounds and publishes every beat due by then (publish-beat.js). Beat times are computed
// from the anchor and the timeline, never accumulated, so they cannot drift. A pending branch or
// a loop's pass is taken on the beat it replaces (engine-branch.js); the piece ends when its
// last beat has finished sounding.

import { publishBeat } from './publish-beat.js';

/**
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createBeatClock(show) {
  const { at } = show;
  let timer = null;

  /** Time a beat sounds while playing, from the anchor (no accumulation). */
  function timeOfBeat(/** @type {number} */ index) {
    const { timeline } = show.loaded;
    return at.anchor.time + (timeline.msAt(index) - timeline.msAt(at.anchor.index)) / show.tempo.factor;
  }

  function cancel() {
    if (timer !== null) show.clearTimer(timer);
    timer = null;
  }

  /** New anchor (play, seek, tempo, resume, a branch): the flywheel's segment starts again there. */
  const reanchor = (/** @type {number} */ index) => show.loaded.flywheel.reanchor(index, show.tempo.factor);

  /** The piece has run out of beats: stop once the last has finished sounding, else wake then. */
  function endOrWait() {
    const end = timeOfBeat(show.loaded.timeline.totalBeats);
    if (show.now() >= end) {
      at.playFrom = 0;
      at.currentAt = end;
      show.transport.set('stopped');
      show.emitState();
      return;
    }
    timer = show.setTimer(tick, Math.max(0, end - show.now()));
  }

  /** Publish every beat due within the lookahead window, then sleep until the next one is. */
  function tick() {
    timer = null;
    if (!show.transport.playing()) return;
    const { timeline } = show.loaded;
    const horizon = show.now() + show.lookaheadMs;
    while (timeOfBeat(at.nextBeat) <= horizon) {
      const loopBack = show.rehearsal.jumpAt(at.nextBeat);
      if (loopBack) at.jump = loopBack; // another pass: taken like a branch
      if (at.jump && at.nextBeat === at.jump.from) show.branch.takeJump();
      if (at.nextBeat >= timeline.totalBeats) break;
      publishBeat(show, at.nextBeat, timeOfBeat(at.nextBeat));
      at.nextBeat += 1;
    }
    if (at.nextBeat >= timeline.totalBeats) return endOrWait();
    timer = show.setTimer(tick, Math.max(0, timeOfBeat(at.nextBeat) - show.lookaheadMs - show.now()));
  }

  /**
   * Play from beat `next` on, timed from the anchor already set, with `anchored` the beat the
   * flywheel's segment starts at: the transport becomes playing and the due beats go out.
   * @param {number} next
   * @param {number} anchored
   */
  function runFrom(next, anchored) {
    at.nextBeat = next;
    reanchor(anchored);
    show.transport.set('playing');
    tick();
  }

  return {
    timeOfBeat,
    cancel,
    reanchor,
    tick,
    runFrom,
    /**
     * Start playing from beat `index`, which sounds one lookahead from now (or at `time`).
     * @param {number} index
     * @param {number} [time]
     */
    startAt(index, time = show.now() + show.lookaheadMs) {
      cancel();
      at.jump = null;
      at.anchor = { index, time };
      runFrom(index, index);
    },
    /** The tempo factor is about to change while playing: re-anchor on the last published beat so no later beat can land before it. */
    retime(/** @type {() => void} */ changeFactor) {
      at.anchor = { index: at.current, time: at.currentAt };
      changeFactor();
      reanchor(at.current);
      cancel();
      tick();
    },
  };
}
