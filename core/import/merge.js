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
    let beats = imported.meter[0].count ?? imported.meter[0].beats;
    for (const m of imported.meter) if (m.bar <= bar) beats = m.count ?? m.beats;
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
    parts: mergeParts(existing.parts ?? [], imported.parts ?? []),
    assets: existing.assets ?? [],
    view: existing.view ?? {},
    cues,
    prompts: carry(existing.prompts, 'prompt', (p) => ` "${p.id}"`, ['at']),
    reactions: carry(existing.reactions, 'reaction', label, ['at', 'until']),
  };
  return { score, lost, kept: cues.length };
}

/**
 * The existing parts, in their order and with their ids (cues, tablets and OSC prefixes name
 * them), then the imported parts none of them is. An imported part is an existing one with its
 * id, else one with its name, else one whose name it numbers: an import from before duplicates were numbered (issue 40,
 * item 3) has "Violin" twice as violin and violin-2, the new one "Violin 1" and "Violin 2"; those
 * keep the ids violin and violin-2 and take the numbered names.
 * @param {Array<Record<string, any>>} existing
 * @param {Array<Record<string, any>>} imported
 * @returns {Array<Record<string, any>>}
 */
function mergeParts(existing, imported) {
  const out = existing.map((p) => ({ ...p }));
  /** @type {Map<Record<string, any>, Record<string, any>>} imported part → the existing part it is */
  const matched = new Map();
  const free = (p) => ![...matched.values()].includes(p);
  for (const part of imported) {
    const same = out.find((p) => p.id === part.id && free(p));
    if (same) matched.set(part, same);
  }
  for (const part of imported) {
    if (matched.has(part)) continue;
    const unnumbered = part.name.replace(NUMBERED, '');
    const same =
      out.find((p) => p.name === part.name && free(p)) ??
      (unnumbered !== part.name ? out.find((p) => p.name === unnumbered && free(p)) : undefined);
    if (same) matched.set(part, same);
  }
  const ids = new Set(out.map((p) => p.id));
  for (const part of imported) {
    const same = matched.get(part);
    // The old, unnumbered name of a part the new file numbers takes the number.
    if (same && same.name !== part.name && same.name === part.name.replace(NUMBERED, '')) same.name = part.name;
    else if (!same && !ids.has(part.id)) out.push(part);
  }
  return out.slice(0, 64);
}

/** A part name's number, as an import gives it ("Violin 2", "String Ensemble 1 (2)") or a file writes it ("Violin II"). */
const NUMBERED = / (\d+|[IVX]+|\(\d+\))$/;
