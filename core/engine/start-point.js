// Where a rehearsal starts or a loop ends, as the operator says it (docs/how-to/rehearse.md#rehearsing): a
// section's mark ("from C"), a printed bar of an imported piece ("from bar 17", the number in the
// parts, core/score/printed-bars.js) or the running bar, each with an optional beat. One reading for
// the control API, OSC-in and the console. Pure and runtime-free.

import { barOfPrinted } from '#core/score/printed-bars.js';

/**
 * @typedef {{ section: string } | { printedBar: number, beat?: number, pass?: number } | { bar: number, beat?: number }} PlaceSpec
 * @typedef {{ index: number, bar: number, beat: number } | { error: string, message: string }} Place
 */

/**
 * The performance bar a place names, with the section it names (if any), or an error.
 * @param {any} score validated, normalized score
 * @param {{ bars: number }} timeline
 * @param {PlaceSpec} spec
 * @returns {{ bar: number, beat: number, section?: any } | { error: string, message: string }}
 */
function barOf(score, timeline, spec) {
  if ('section' in spec) {
    const section = (score.sections ?? []).find((s) => s.mark === spec.section);
    if (!section) {
      const marks = (score.sections ?? []).map((s) => s.mark);
      const known = marks.length ? `: ${marks.join(', ')}` : ' (this score has none)';
      return { error: 'UNKNOWN_SECTION', message: `no section "${spec.section}"; the sections are${known}` };
    }
    return { bar: section.at.bar, beat: section.at.beat ?? 1, section };
  }
  if ('printedBar' in spec) {
    const bar = barOfPrinted(score.printedBars, spec.printedBar, spec.pass, timeline.bars);
    if (bar === undefined) {
      const pass = spec.pass ? ` on pass ${spec.pass}` : '';
      return { error: 'BAD_POSITION', message: `printed bar ${spec.printedBar}${pass} is not in this piece` };
    }
    return { bar, beat: spec.beat ?? 1 };
  }
  return { bar: spec.bar, beat: spec.beat ?? 1 };
}

/**
 * The beat a place starts on.
 * @param {any} score
 * @param {{ bars: number, beatsInBar: (bar: number) => number, indexOf: (bar: number, beat: number) => number }} timeline
 * @param {PlaceSpec} spec
 * @returns {Place}
 */
export function resolveStart(score, timeline, spec) {
  const at = barOf(score, timeline, spec);
  if ('error' in at) return at;
  if (!Number.isInteger(at.bar) || at.bar < 1 || at.bar > timeline.bars) {
    return { error: 'BAD_POSITION', message: `bar must be an integer from 1 to ${timeline.bars}` };
  }
  const beats = timeline.beatsInBar(at.bar);
  if (!Number.isInteger(at.beat) || at.beat < 1 || at.beat > beats) {
    return { error: 'BAD_POSITION', message: `beat must be an integer from 1 to ${beats} in bar ${at.bar}` };
  }
  return { index: timeline.indexOf(at.bar, at.beat), bar: at.bar, beat: at.beat };
}

/**
 * The first beat after a place, as a loop's end: a section runs to the next section (or the end
 * of the piece); a bar (running or printed) to its last beat.
 * @param {any} score
 * @param {{ bars: number, totalBeats: number, beatsInBar: (bar: number) => number, indexOf: (bar: number, beat: number) => number }} timeline
 * @param {PlaceSpec} spec
 * @returns {{ end: number } | { error: string, message: string }}
 */
export function resolveEnd(score, timeline, spec) {
  const at = barOf(score, timeline, spec);
  if ('error' in at) return at;
  if ('section' in at && at.section) {
    const start = timeline.indexOf(at.bar, at.beat);
    const later = (score.sections ?? [])
      .map((s) => timeline.indexOf(s.at.bar, s.at.beat ?? 1))
      .filter((i) => i > start)
      .sort((a, b) => a - b);
    return { end: later[0] ?? timeline.totalBeats };
  }
  if (!Number.isInteger(at.bar) || at.bar < 1 || at.bar > timeline.bars) {
    return { error: 'BAD_POSITION', message: `bar must be an integer from 1 to ${timeline.bars}` };
  }
  return { end: at.bar === timeline.bars ? timeline.totalBeats : timeline.indexOf(at.bar + 1, 1) };
}
