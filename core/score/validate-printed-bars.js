// Rules for `printedBars` (docs/reference/score-format.md#printed-bar-numbers): runs of printed bar numbers
// over the performance-order bars, so players and the console can speak of "17, 2nd time".

import { checkArray, checkEntry, checkInteger, has, own } from './validate-primitives.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./printed-bars.js').PrintedRun} PrintedRun
 */

/** Highest printed bar number and pass accepted. */
export const PRINTED_LIMITS = Object.freeze({ number: 99_999, pass: 99 });

const EXAMPLE = '{ "bar": 9, "number": 1, "pass": 2 }';

/**
 * The printed bar numbers (optional). Runs start at bar 1 and their bars strictly increase, up
 * to `bars`; `number` is 0 (a pickup) or more, `pass` 1 or more. Check after `bars`.
 * @param {CheckContext} ctx
 * @param {any} value the score's `printedBars`
 * @param {ScoreEnv} env
 * @returns {PrintedRun[]}
 */
export function checkPrintedBars(ctx, value, env) {
  if (!checkArray(ctx, value, 'printedBars', env.lastBar ?? 10_000, `runs of printed bar numbers such as ${EXAMPLE}`, false)) return [];
  /** @type {PrintedRun[]} */
  const out = [];
  let previousBar;
  value.forEach((entry, i) => {
    const path = `printedBars[${i}]`;
    if (!checkEntry(ctx, entry, path, `a run of printed bar numbers such as ${EXAMPLE}`, ['bar', 'number', 'pass'])) return;
    const bar = own(entry, 'bar');
    if (bar === undefined) ctx.add(`${path}.bar`, 'missing: the bar (in performance order) where this run of printed numbers starts');
    else if (checkInteger(ctx, bar, `${path}.bar`, 1, env.lastBar ?? 10_000, 'the bar where this run starts')) {
      if (i === 0 && bar !== 1) ctx.add(`${path}.bar`, `the first run of printed bar numbers must start at bar 1, not bar ${bar}`);
      else if (previousBar !== undefined && bar <= previousBar)
        ctx.add(`${path}.bar`, `bar ${bar} must come after the previous run's bar (${previousBar}); list runs in order`);
      previousBar = bar;
    }
    const number = own(entry, 'number');
    if (number === undefined) ctx.add(`${path}.number`, "missing: the printed number of the run's first bar (0 for a pickup)");
    else checkInteger(ctx, number, `${path}.number`, 0, PRINTED_LIMITS.number, 'the printed bar number');
    /** @type {PrintedRun} */
    const run = { bar, number };
    if (has(entry, 'pass')) {
      checkInteger(ctx, own(entry, 'pass'), `${path}.pass`, 1, PRINTED_LIMITS.pass, 'the pass (1 = first time, 2 = second time…)');
      run.pass = own(entry, 'pass');
    }
    out.push(run);
  });
  return out;
}
