// Printed bar numbers (docs/reference/score-format.md#printed-bar-numbers). A score imported with its
// repeats played out counts bars in performance order, while musicians speak in the numbers
// printed in their parts ("from 17, second time"). `printedBars` maps one to the other as runs:
// from `bar` on, printed numbers count up from `number`, on pass `pass` (default 1), until the
// next run. Runtime-free: the server, the console, the part pages and the audience share it.

/**
 * @typedef {{ bar: number, number: number, pass?: number }} PrintedRun
 * @typedef {{ number: number, pass: number, repeated: boolean }} PrintedBar
 */

/**
 * Index of the run holding a performance bar (runs sorted by bar, the first at bar 1); -1 when none.
 * @param {ReadonlyArray<PrintedRun>} runs
 * @param {number} bar
 * @returns {number}
 */
function runIndexAt(runs, bar) {
  let lo = 0;
  let hi = runs.length - 1;
  if (hi < 0 || runs[0].bar > bar) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (runs[mid].bar <= bar) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The printed bar number and pass of a performance bar, or undefined when the score has no
 * printed numbers. `repeated` says whether that printed bar sounds more than once in the piece
 * (only then is the pass worth showing).
 * @param {ReadonlyArray<PrintedRun> | undefined} runs the score's `printedBars`
 * @param {number} bar performance bar (1-based)
 * @param {number} [bars] the score's `bars` (bounds the last run when counting repeats)
 * @returns {PrintedBar | undefined}
 */
export function printedBarAt(runs, bar, bars = Infinity) {
  if (!runs || runs.length === 0) return undefined;
  const i = runIndexAt(runs, bar);
  if (i < 0) return undefined;
  const run = runs[i];
  const number = run.number + (bar - run.bar);
  const pass = run.pass ?? 1;
  return { number, pass, repeated: pass > 1 || occurrences(runs, number, bars) > 1 };
}

// How many runs contain a printed number (each run holds a number at most once).
function occurrences(runs, number, bars) {
  let count = 0;
  runs.forEach((run, i) => {
    const end = (i + 1 < runs.length ? runs[i + 1].bar : Math.min(bars + 1, run.bar + 100_000)) - 1;
    if (number >= run.number && number <= run.number + (end - run.bar)) count += 1;
  });
  return count;
}

/**
 * The performance bar where a printed bar sounds on a pass (without a pass: the first time it
 * sounds), or undefined when it never does. A score without printed numbers counts its own bars.
 * @param {ReadonlyArray<PrintedRun> | undefined} runs
 * @param {number} number printed bar number
 * @param {number} [pass] 1 = the first time, 2 = the second time…
 * @param {number} [bars] the score's `bars`
 * @returns {number | undefined}
 */
export function barOfPrinted(runs, number, pass, bars = Infinity) {
  if (!runs || runs.length === 0) return number >= 1 && number <= bars && (pass ?? 1) === 1 ? number : undefined;
  for (let i = 0; i < runs.length; i += 1) {
    const run = runs[i];
    const end = (i + 1 < runs.length ? runs[i + 1].bar : bars + 1) - 1;
    const bar = run.bar + (number - run.number);
    if (number < run.number || bar > end) continue;
    if (pass === undefined || (run.pass ?? 1) === pass) return bar;
  }
  return undefined;
}

/**
 * How the printed bar reads beside the running count: "17", or "17 (2nd time)" for a printed
 * bar that sounds more than once. Empty when the score has no printed numbers.
 * @param {ReadonlyArray<PrintedRun> | undefined} runs
 * @param {number} bar performance bar
 * @param {number} [bars]
 * @returns {string}
 */
export function printedBarLabel(runs, bar, bars) {
  const printed = printedBarAt(runs, bar, bars);
  if (!printed) return '';
  return printed.repeated ? `${printed.number} (${ordinal(printed.pass)} time)` : String(printed.number);
}

/**
 * "1st", "2nd", "3rd", "4th"… for a pass number.
 * @param {number} n
 * @returns {string}
 */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * Runs from one printed bar per performance bar: a new run wherever the number does not follow
 * the previous one or the pass changes. `pass` is left out when it is 1.
 * @param {ReadonlyArray<{ number: number, pass: number }>} perBar index 0 = performance bar 1
 * @returns {PrintedRun[]}
 */
export function printedRuns(perBar) {
  /** @type {PrintedRun[]} */
  const runs = [];
  perBar.forEach((p, i) => {
    const prev = perBar[i - 1];
    if (prev && p.number === prev.number + 1 && p.pass === prev.pass) return;
    runs.push(p.pass > 1 ? { bar: i + 1, number: p.number, pass: p.pass } : { bar: i + 1, number: p.number });
  });
  return runs;
}
