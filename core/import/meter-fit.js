// Time signatures of imported measures: the meter as written, or — for a pickup, a measure with
// no time signature, or one whose notes fill a different length — the meter of its real length.

const UNITS = [1, 2, 4, 8, 16, 32];
const EPS = 1e-9;

/**
 * The length of a bar in quarter notes.
 * @param {{ beats: number, unit: number }} meter
 * @returns {number}
 */
export function barQuarters(meter) {
  return (meter.beats * 4) / meter.unit;
}

/**
 * A meter `{ beats, unit }` lasting exactly `quarters` quarter notes, in the given unit when it
 * divides the length, else the next finer or coarser unit that does (at most 32 beats a bar).
 * Undefined when no unit fits (a length of 7/3 quarter notes, or more than 32 whole notes).
 * @param {number} quarters
 * @param {number} preferredUnit the written meter's unit (4 when unknown)
 * @returns {{ beats: number, unit: number } | undefined}
 */
export function fitMeter(quarters, preferredUnit) {
  if (!(quarters > EPS)) return undefined;
  const start = Math.max(0, UNITS.indexOf(preferredUnit));
  // Finer units first (a pickup of one eighth in 4/4 is 1/8), then coarser (a long unmeasured bar).
  const candidates = [...UNITS.slice(start), ...UNITS.slice(0, start).reverse()];
  for (const unit of candidates) {
    const beats = (quarters * unit) / 4;
    const whole = Math.round(beats);
    if (Math.abs(beats - whole) < 1e-6 && whole >= 1 && whole <= 32) return { beats: whole, unit };
  }
  return undefined;
}

/**
 * Sum of a composite numerator ("3+2" → 5); NaN when it is not one.
 * @param {string} text
 * @returns {number}
 */
export function numeratorBeats(text) {
  const parts = String(text)
    .trim()
    .split('+')
    .map((p) => Number(p.trim()));
  return parts.every((p) => Number.isInteger(p) && p > 0) ? parts.reduce((a, b) => a + b, 0) : NaN;
}

export { UNITS as METER_UNITS };
