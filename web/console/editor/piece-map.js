// The piece as the editor draws it: every bar in performance order with its printed number,
// beats, the section starting there, and meter and tempo marks, derived from a validated score
// with the same core code the show runs (core/score/timeline.js, printed-bars.js). Also the
// conversions between a cue's `at` and a beat index, and a printed bar to a performance bar.

import { createTimeline } from '../../../core/score/timeline.js';
import { printedBarAt, barOfPrinted, printedBarLabel } from '../../../core/score/printed-bars.js';

/**
 * @typedef {object} BarInfo
 * @property {number} bar performance bar (1-based)
 * @property {number} start beat index of its first beat
 * @property {number} beats
 * @property {string} printed printed number as the console shows it ("17", "17 (2nd time)"), '' without printedBars
 * @property {string} short the printed number for the narrow bar header ("17", "17 (2)" the second time), '' without printedBars
 * @property {string} [section] the mark (and name) of a section starting on this bar
 * @property {string} [meter] "3/4" when the meter changes here (and on bar 1)
 * @property {string} [tempo] "♩ = 96" when a tempo mark starts in this bar
 */

/**
 * @param {any} score a normalized score (validateScore(...).score)
 */
export function createPieceMap(score) {
  const timeline = createTimeline(score);
  const runs = score.printedBars;
  /** @type {BarInfo[]} */
  const bars = [];
  for (let bar = 1; bar <= score.bars; bar += 1) {
    const printed = printedBarAt(runs, bar, score.bars);
    bars.push({
      bar,
      start: timeline.indexOf(bar, 1),
      beats: timeline.beatsInBar(bar),
      printed: printed ? printedBarLabel(runs, bar, score.bars) : '',
      short: printed ? `${printed.number}${printed.repeated ? ` (${printed.pass})` : ''}` : '',
    });
  }
  for (const s of score.sections) {
    const b = bars[s.at.bar - 1];
    if (b) b.section = [s.mark, s.name].filter(Boolean).join(' ');
  }
  for (const m of score.meter) {
    const b = bars[m.bar - 1];
    if (b) b.meter = `${m.beats}/${m.unit}`;
  }
  for (const t of score.tempo) {
    const b = bars[t.at.bar - 1];
    if (b) b.tempo = `♩ = ${t.bpm}${t.to ? ` → ${t.to}` : ''}`;
  }

  return {
    bars,
    totalBeats: timeline.totalBeats,
    timeline,
    /** Beat index of a position `{ bar, beat? }`, clamped into the piece. */
    indexOf(/** @type {{ bar: number, beat?: number }} */ at) {
      const bar = Math.min(Math.max(1, at.bar | 0), score.bars);
      const beat = Math.min(Math.max(1, (at.beat ?? 1) | 0), timeline.beatsInBar(bar));
      return timeline.indexOf(bar, beat);
    },
    /** `{ bar, beat }` of a beat index, clamped into the piece. */
    positionOf(/** @type {number} */ index) {
      const p = timeline.positionOf(Math.min(Math.max(0, Math.round(index)), timeline.totalBeats - 1));
      return { bar: p.bar, beat: p.beat };
    },
    /** Performance bar of a printed bar (and pass), or undefined. */
    barOfPrinted(/** @type {number} */ number, /** @type {number | undefined} */ pass) {
      return barOfPrinted(runs, number, pass, score.bars);
    },
    /** Whether the score has printed bar numbers apart from its performance count. */
    hasPrinted: Boolean(runs?.length),
    /** The printed bar label of a performance bar ('' without printedBars). */
    printedOf: (/** @type {number} */ bar) => bars[bar - 1]?.printed ?? '',
  };
}
