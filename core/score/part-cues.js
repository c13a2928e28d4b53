// The musicians' cue table (docs/how-to/part-pages.md#part-pages): every OSC cue of a score with the beat it
// falls on, the part it belongs to and what it says, so a part page can count down to a player's
// next cue from the state stream alone. Sent once per score to part pages (never in the audience
// state: audience updates stay tiny), computed once per score load.

import { graphicStrips } from './graphic-map.js';
import { createTimeline } from './timeline.js';

/** The picker's entry that follows every part at once (a conductor, a stage manager). */
export const ALL_PARTS = '*';

/**
 * @typedef {object} PartCue
 * @property {number} i beat index (0-based) the cue falls on
 * @property {number} bar
 * @property {number} beat
 * @property {string | null} part the part it is for, null for a cue to every musician
 * @property {string} address the OSC address as sent (the part's prefix + the cue's address)
 * @property {Array<number | string | boolean>} args
 * @property {string} [label] the composer's note, when the cue has one
 *
 * @typedef {object} PartCueTable
 * @property {{ id: string, title: string, bars: number, totalBeats: number, notation: boolean, printedBars?: Array<{ bar: number, number: number, pass?: number }> }} score
 *   `notation`: the score names its notation (engraved pages to ask for)
 *   `printedBars` (with `bars`) when the score has printed bar numbers (docs/reference/score-format.md#printed-bar-numbers)
 * @property {Array<{ id: string, name: string, osc: string }>} parts
 * @property {PartCue[]} cues sorted by beat, then score order
 * @property {Array<{ i: number, bar: number, mark: string, name?: string }>} sections rehearsal marks by beat, so
 *   a part page names the section at the beat it starts even through a network outage
 * @property {import('./graphic-map.js').GraphicStrip[]} [graphic] the score's graphic strips, when it has any
 *   (docs/reference/graphic-scores.md#the-graphic-field)
 */

/**
 * The cue table of a validated, normalized score (core/score/validate.js).
 * @param {any} score
 * @returns {PartCueTable}
 */
export function partCueTable(score) {
  const timeline = createTimeline(score);
  const parts = (score.parts ?? []).map((p) => ({ id: p.id, name: p.name ?? p.id, osc: p.osc }));
  const prefix = new Map(parts.map((p) => [p.id, p.osc]));
  const cues = (score.cues ?? [])
    .map((cue, n) => ({ cue, n, i: timeline.indexOf(cue.at.bar, cue.at.beat ?? 1) }))
    .filter(({ cue }) => cue.osc)
    .sort((a, b) => a.i - b.i || a.n - b.n)
    .map(({ cue, i }) => {
      const part = cue.osc.part ?? null;
      /** @type {PartCue} */
      const out = {
        i,
        bar: cue.at.bar,
        beat: cue.at.beat ?? 1,
        part,
        address: (part ? (prefix.get(part) ?? '') : '') + cue.osc.address,
        args: cue.osc.args ?? [],
      };
      if (cue.label) out.label = cue.label;
      return out;
    });
  const sections = (score.sections ?? [])
    .map((sec) => ({
      i: timeline.indexOf(sec.at.bar, sec.at.beat ?? 1),
      bar: sec.at.bar,
      mark: sec.mark,
      ...(sec.name ? { name: sec.name } : {}),
    }))
    .sort((a, b) => a.i - b.i);
  const printed = score.printedBars?.length ? { printedBars: score.printedBars } : {};
  // `notation`: the part page asks for the engraved pages (docs/reference/notation.md#notation-routes) only when there are some.
  const notation = typeof (/** @type {any} */ (score).notation) === 'string';
  const graphic = score.graphic?.length ? { graphic: graphicStrips(score, timeline) } : {};
  return {
    score: { id: score.id, title: score.title, bars: score.bars, totalBeats: timeline.totalBeats, notation, ...printed },
    parts,
    cues,
    sections,
    ...graphic,
  };
}
