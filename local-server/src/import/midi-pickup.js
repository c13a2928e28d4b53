// A pickup (anacrusis) in a MIDI file, read from where its barlines fall.
//
// MuseScore writes a pickup as a short time signature of its own (1/4, then 3/4),
// which the measures need nothing more for. LilyPond and abc2midi write none: the pickup's notes
// start at tick 0 under the piece's first time signature, so every later barline sits the
// pickup's length off that signature's bars counted from 0. A time signature change is the one
// event a notation program or a DAW puts only on a barline, so the first one after tick 0 tells
// where the bars run; rehearsal marks before it (LilyPond's \mark) must agree. A piece with one
// time signature throughout shows no such event: its pickup cannot be told from the file
// (docs/how-to/import.md#bringing-a-piece-in: `--pickup`).

/** Shorter than a 32nd note is a program's rounding, never a pickup. */
const SHORTEST_PICKUP_IN_QUARTERS = 1 / 8;

/**
 * The pickup's length in ticks that the file's barline events imply, or 0 when they imply none
 * (or disagree).
 * @param {{ signatures: Array<{ tick: number, numerator: number, denominator: number }>, markers: Array<{ tick: number }> }} events sorted by tick
 * @param {number} ppq ticks per quarter note
 * @returns {number}
 */
export function impliedPickupTicks({ signatures, markers }, ppq) {
  const opening = signatures.filter((s) => s.tick === 0).at(-1) ?? { numerator: 4, denominator: 4 };
  const barTicks = (opening.numerator * ppq * 4) / opening.denominator;
  const change = signatures.find((s) => s.tick > 0);
  if (!change || !(barTicks > 0)) return 0;
  const pickup = change.tick % barTicks;
  if (pickup < ppq * SHORTEST_PICKUP_IN_QUARTERS || barTicks - pickup < ppq * SHORTEST_PICKUP_IN_QUARTERS) return 0;
  const onBarline = (/** @type {number} */ tick) => tick === 0 || (tick - pickup) % barTicks === 0;
  return markers.every((m) => m.tick >= change.tick || onBarline(m.tick)) ? pickup : 0;
}
