// Crash resume as the engine sees it (docs/how-to/venue-server-unattended.md#crash-resume; core/engine/engine.js): the point a
// restarted server needs to carry on (transport, anchor, tempo), the checks on a point read back
// from disk (resume-point.js), and carrying on from one as if the show had never stopped.

import { resumePointProblem } from './resume-point.js';
import { MIN_BPM, MAX_BPM } from './engine-limits.js';

/**
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createResume(show) {
  const { at, transport, tempo, clock } = show;

  /** Why `point` cannot apply to this score (out of range, another score), or null. */
  function resumeProblem(/** @type {any} */ point) {
    const written = show.loaded.plan.writtenBpmRange();
    return resumePointProblem(point, {
      scoreId: show.loaded.score.id,
      totalBeats: show.loaded.timeline.totalBeats,
      minWrittenBpm: written.min,
      maxWrittenBpm: written.max,
      minBpm: MIN_BPM,
      maxBpm: MAX_BPM,
      now: show.now(),
    });
  }

  /** Carry on playing from a saved anchor at the beat that should be sounding now. */
  function resumePlaying(/** @type {any} */ point, /** @type {(i: unknown) => number} */ clampIndex) {
    const { timeline } = show.loaded;
    at.anchor = { index: clampIndex(point.anchor.index), time: point.anchor.time };
    const elapsedIndex = timeline.indexAtMs(timeline.msAt(at.anchor.index) + (show.now() - at.anchor.time) * tempo.factor);
    const next = Math.ceil(elapsedIndex);
    if (next >= timeline.totalBeats) return; // the piece would have ended: stay stopped
    // Until the next beat is published, the state shows the beat sounding now.
    const shown = Math.max(0, next - 1);
    at.moveTo(shown, clock.timeOfBeat(shown));
    clock.runFrom(next, shown);
  }

  return {
    /**
     * The transport, the anchor (which beat sounds when), the tempo factor (and percentage) and a
     * loop: enough to compute the position at any later time, so it only changes on transport, seek,
     * tempo and loop changes.
     */
    resumePoint() {
      const playing = transport.playing();
      return {
        scoreId: show.loaded.score.id,
        transport: transport.value,
        // While playing, the anchor says everything; leaving the moving beat out keeps the
        // point unchanged from beat to beat, so callers persist it only when it really changes.
        index: playing ? null : at.playFrom,
        shown: playing ? null : at.current,
        anchor: playing ? { ...at.anchor } : null,
        tempoFactor: tempo.factor,
        ...show.rehearsal.resumePart(), // the loop; a running count-in comes back as a pause
        ...(tempo.percent !== null ? { tempoPercent: tempo.percent } : {}),
      };
    },
    resumeProblem,
    /**
     * Carry on from a resume point saved by another process.
     * @param {any} point
     * @returns {boolean} whether the point applied to this score
     */
    resumeFrom(point) {
      if (resumeProblem(point) !== null) return false;
      const { totalBeats } = show.loaded.timeline;
      const clampIndex = (i) => (Number.isInteger(i) && i >= 0 && i < totalBeats ? i : 0);
      tempo.factor = point.tempoFactor;
      tempo.percent = point.tempoPercent ?? null;
      point = show.rehearsal.resume(point); // the loop back, over the passes played meanwhile
      if (point.transport === 'playing' && point.anchor && Number.isFinite(point.anchor.time)) {
        resumePlaying(point, clampIndex);
        return true;
      }
      const index = clampIndex(point.index);
      at.moveTo(clampIndex(point.shown ?? index), show.now(), index);
      if (point.transport === 'paused') transport.set('paused');
      show.emitState();
      return true;
    },
  };
}
