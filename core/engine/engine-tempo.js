// The engine's tempo (core/engine/engine.js): the factor the written tempo map is scaled by (ramps
// keep their shape), set as an override in bpm or as a rehearsal percentage (docs/how-to/rehearse.md#rehearsing)
// . While playing, a change re-anchors the clock on the last published beat.

import { checkBpm, checkTempoPercent } from './engine-limits.js';

const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * @typedef {object} TempoState
 * @property {number} factor the written tempo map is scaled by this (1: as written)
 * @property {number | null} percent the rehearsal tempo when the operator set one as a percentage
 * @property {() => number} bpm the tempo of the beat shown, as played
 * @property {(bpm: number | null) => void} setBpm
 * @property {(percent: number) => void} setPercent
 * @property {() => void} reset back to the written tempo, publishing nothing (a new score)
 */

/**
 * The tempo, as written.
 * @param {import('./engine-context.js').ShowContext} show
 * @returns {TempoState}
 */
export function createTempo(show) {
  function apply(/** @type {number} */ factor) {
    if (show.transport.playing()) {
      show.clock.retime(() => {
        tempo.factor = factor;
      });
    } else {
      tempo.factor = factor;
    }
    show.emitState();
  }

  /** @type {TempoState} */
  const tempo = {
    factor: 1,
    percent: null,
    // As the tempo mark writes it: ♩ = 100 over an eighth's pickup shows 100, not the 200
    // eighths a minute its beats run at (docs/reference/meter.md#a-tempo-in-another-beat).
    bpm: () => round3(show.loaded.timeline.tempoAt(show.at.current) * tempo.factor),
    /**
     * Override the tempo: the written tempo map is scaled so the current beat plays at `bpm`.
     * `null` returns to the written tempo.
     */
    setBpm(bpm) {
      checkBpm(bpm);
      const factor = bpm === null ? 1 : bpm / show.loaded.timeline.tempoAt(show.at.current);
      tempo.percent = null;
      apply(factor);
    },
    /** A rehearsal tempo: the written tempo map scaled to `percent` %. */
    setPercent(percent) {
      checkTempoPercent(percent, show.loaded.plan.writtenBpmRange());
      tempo.percent = percent === 100 ? null : Math.round(percent * 10) / 10;
      apply(percent / 100);
    },
    reset() {
      tempo.factor = 1;
      tempo.percent = null;
    },
  };
  return tempo;
}
