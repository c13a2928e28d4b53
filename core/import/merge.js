// `tutti import --merge EXISTING`: a revised edition of the piece replaces the time map of an
// existing score (bars, meter, tempo, printed bar numbers, and sections when the new file has
// rehearsal marks), keeping its cues, prompts and reactions at the same *printed* bars and beats.
// What no longer exists is reported and left out. Runtime-free.

import { barOfPrinted, printedBarAt } from '#core/score/printed-bars.js';

/**
 * @typedef {{ bar: number, beat: number }} Position
 * @typedef {{ what: string, message: string }} MergeLoss
 */

/**
 * Merge. `existing` is a validated, normalized score (core/score/validate.js); `imported` the
 * score an import produced. Returns the merged score (to validate again) and what was lost.
 * @param {Record<string, any>} existing
 * @param {Record<string, any>} imported
 * @returns {{ score: Record<string, any>, lost: MergeLoss[], kept: number }}
 */
export function mergeTimeMap(existing, imported) {
  /** @type {MergeLoss[]} */
  const lost = [];
  const beatsAt = (bar) => {
    let beats = imported.meter[0].beats;
    for (const m of imported.meter) if (m.bar <= bar) beats = m.beats;
    return beats;
  };
  /** @param {Position} pos @returns {Position | string} the new position, or why there is none */
  const move = (pos) => {
    const printed = printedBarAt(existing.printedBars, pos.bar, existing.bars) ?? { number: pos.bar, pass: 1 };
    const bar = barOfPrinted(imported.printedBars, printed.number, printed.pass, imported.bars);
    const said = `printed bar ${printed.number}${printed.pass > 1 ? ` (pass ${printed.pass})` : ''}`;
    if (bar === undefined) return `${said} no longer exists`;
    if (pos.beat > beatsAt(bar)) return `${said} has no beat ${pos.beat} any more (${beatsAt(bar)} beats)`;
    return { bar, beat: pos.beat };
  };
  const carry = (list, name, describe, positions) => {
    const out = [];
    (list ?? []).forEach((item) => {
      const moved = {};
      for (const key of positions) {
        if (!item[key]) continue;
        const to = move(item[key]);
        if (typeof to === 'string') {
          lost.push({ what: `${name}${describe(item)} at bar ${item[key].bar}, beat ${item[key].beat}`, message: to });
          return;
        }
        moved[key] = to;
      }
      out.push({ ...item, ...moved });
    });
    return out;
  };
  const label = (c) => (c.label ? ` "${c.label}"` : '');
  const cues = carry(existing.cues, 'cue', label, ['at']);
  const newIds = new Set((existing.parts ?? []).map((p) => p.id));
  const score = {
    format: existing.format,
    id: existing.id,
    title: existing.title,
    ...(existing.composer ? { composer: existing.composer } : {}),
    bars: imported.bars,
    meter: imported.meter,
    tempo: imported.tempo,
    sections: imported.sections?.length ? imported.sections : carry(existing.sections, 'section', (s) => ` "${s.mark}"`, ['at']),
    ...(imported.printedBars ? { printedBars: imported.printedBars } : {}),
    // The new edition's notation when it has one (docs/reference/notation.md#the-notation-field).
    ...((imported.notation ?? existing.notation) ? { notation: imported.notation ?? existing.notation } : {}),
    parts: [...(existing.parts ?? []), ...(imported.parts ?? []).filter((p) => !newIds.has(p.id))].slice(0, 64),
    assets: existing.assets ?? [],
    view: existing.view ?? {},
    cues,
    prompts: carry(existing.prompts, 'prompt', (p) => ` "${p.id}"`, ['at']),
    reactions: carry(existing.reactions, 'reaction', label, ['at', 'until']),
  };
  return { score, lost, kept: cues.length };
}
