// Checks a "tutti-score/1" score (docs/reference/score-format.md) and returns every problem at once, worded for
// the composer, plus a normalized copy the timeline and engine can trust without re-checking.
// Input may be anything (parsed JSON, or worse): nothing here throws.
// The rules live in validate-timing.js (positions, meter, tempo, sections), validate-media.js
// (parts, assets, references), validate-cues.js (views, cues) and validate-state-size.js (the
// audience state replayed over the whole piece); this file checks the top level and runs them in
// dependency order.

import { describeValue, formatProblems } from './format-problems.js';
import { checkCues, checkView } from './validate-cues.js';
import { SCORE_FORMAT, SCORE_LIMITS } from './validate-limits.js';
import { checkAssets, checkParts } from './validate-media.js';
import { checkPrompts } from './validate-prompts.js';
import { checkReactions } from './validate-reactions.js';
import { checkInteger, checkKeys, checkString, has, isObject, own, shown } from './validate-primitives.js';
import { checkPrintedBars } from './validate-printed-bars.js';
import { checkGraphic } from './validate-graphic.js';
import { checkSnapshotSize } from './validate-state-size.js';
import { checkMeter, checkSections, checkTempo } from './validate-timing.js';
import { checkNotation } from './validate-notation.js';

export { formatProblems, SCORE_FORMAT, SCORE_LIMITS };

/**
 * @typedef {import('./format-problems.js').ScoreProblem} ScoreProblem
 * @typedef {import('./validate-limits.js').Position} Position
 * @typedef {import('./validate-limits.js').MeterEntry} MeterEntry
 * @typedef {import('./validate-limits.js').TempoEntry} TempoEntry
 * @typedef {import('./validate-limits.js').Section} Section
 * @typedef {import('./validate-limits.js').Part} Part
 * @typedef {import('./validate-limits.js').Asset} Asset
 * @typedef {import('./validate-limits.js').View} View
 * @typedef {import('./validate-limits.js').Cue} Cue
 * @typedef {import('./validate-limits.js').Score} Score
 * @typedef {import('./validate-limits.js').ValidationResult} ValidationResult
 */

const SCORE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

// "$schema" is accepted (and dropped) so editors can offer completion from scores/score.schema.json.
// The order is the written order of a score (docs/reference/score-editing-api.md#the-written-form).
const ROOT_KEYS = Object.freeze([
  '$schema',
  'format',
  'id',
  'title',
  'composer',
  'bars',
  'meter',
  'tempo',
  'sections',
  'printedBars',
  'notation',
  'parts',
  'assets',
  'view',
  'cues',
  'prompts',
  'reactions',
  'graphic',
]);

/** The top-level keys a score may have, in the order a score is written. */
export const SCORE_KEYS = ROOT_KEYS;

/**
 * Validate a parsed score. Reports every problem at once (up to SCORE_LIMITS.problems, then one
 * line saying how many more). When ok, `score` is a normalized deep copy: every position has an
 * explicit beat, audio gain defaults to 1, osc args default to [], the optional lists default to
 * [] and view to {}, and cues are sorted stably by (bar, beat). Never throws.
 * @param {unknown} value the parsed JSON
 * @returns {ValidationResult}
 */
export function validateScore(value) {
  const ctx = createContext();
  let score;
  try {
    score = checkScore(ctx, value);
  } catch (error) {
    // Only reachable for inputs JSON cannot produce (throwing getters, proxies, stack exhaustion).
    ctx.add('', `the score could not be read: ${error instanceof Error ? error.message : describeValue(error)}`);
  }
  const problems = ctx.finish();
  return problems.length === 0 && score ? { ok: true, problems, score } : { ok: false, problems };
}

// Collects problems, keeping the first SCORE_LIMITS.problems and counting the rest.
function createContext() {
  /** @type {ScoreProblem[]} */
  const problems = [];
  let hidden = 0;
  return {
    /** @param {string} path @param {string} message */
    add(path, message) {
      if (problems.length < SCORE_LIMITS.problems) problems.push({ path: path || '(root)', message });
      else hidden++;
    },
    count: () => problems.length + hidden,
    finish() {
      // Rules run in dependency order (bars before positions, assets before references, a tempo
      // mark checked against the next one); report in file order.
      const sorted = sortProblems(problems);
      if (hidden > 0)
        sorted.push({ path: '(root)', message: `${hidden} more problem${hidden === 1 ? '' : 's'} not shown; fix the ones above first` });
      return sorted;
    },
  };
}

/**
 * Problems in file order (stable): `(root)` first, then by top-level key in the order the format
 * lists them, then by entry index (`cues[3]` before `cues[12]`). Returns a new array.
 * @param {ReadonlyArray<ScoreProblem>} problems
 * @returns {ScoreProblem[]}
 */
export function sortProblems(problems) {
  const key = (p) => (p.path === '(root)' ? -1 : ROOT_KEYS.indexOf(p.path.split(/[.[]/, 1)[0]));
  const entry = (p) => Number(/^[^.[]*\[(\d+)\]/.exec(p.path)?.[1] ?? -1);
  return problems
    .map((p, i) => ({ p, i, key: key(p), entry: entry(p) }))
    .sort((a, b) => a.key - b.key || a.entry - b.entry || a.i - b.i)
    .map((e) => e.p);
}

// The top-level keys, then each list through its rule module, in dependency order.
function checkScore(ctx, value) {
  if (!isObject(value)) {
    ctx.add('', `a score must be a JSON object { "format": "${SCORE_FORMAT}", ... }, got ${describeValue(value)}`);
    return undefined;
  }
  checkKeys(ctx, value, '', ROOT_KEYS);
  const out = {};
  if (has(value, '$schema') && typeof own(value, '$schema') !== 'string') {
    ctx.add('$schema', `expected the path or URL of the JSON Schema (text), got ${describeValue(own(value, '$schema'))}`);
  }

  const format = own(value, 'format');
  if (format === undefined) ctx.add('format', `missing: a score starts with "format": "${SCORE_FORMAT}"`);
  else if (format !== SCORE_FORMAT) ctx.add('format', `${shown(format)} is not a format this version reads; expected "${SCORE_FORMAT}"`);
  out.format = SCORE_FORMAT;

  const id = own(value, 'id');
  if (id === undefined) ctx.add('id', 'missing: give the score a short id such as "my-piece" (lowercase letters, digits, dashes)');
  else if (typeof id !== 'string' || !SCORE_ID.test(id)) {
    ctx.add(
      'id',
      `${shown(id)} is not a valid score id; use 1 to 64 lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-piece")`,
    );
  }
  out.id = id;

  const title = own(value, 'title');
  if (title === undefined) ctx.add('title', `missing: give the piece a title (1 to ${SCORE_LIMITS.titleChars} characters)`);
  else checkString(ctx, title, 'title', { min: 1, max: SCORE_LIMITS.titleChars, what: 'the title', blank: false });
  out.title = title;

  if (has(value, 'composer')) {
    checkString(ctx, own(value, 'composer'), 'composer', { min: 1, max: SCORE_LIMITS.titleChars, what: 'the composer', blank: false });
    out.composer = own(value, 'composer');
  }

  const bars = own(value, 'bars');
  let lastBar;
  if (bars === undefined) ctx.add('bars', `missing: the total number of bars (a whole number from 1 to ${SCORE_LIMITS.bars})`);
  else if (checkInteger(ctx, bars, 'bars', 1, SCORE_LIMITS.bars, 'the total number of bars')) lastBar = bars;
  out.bars = bars;

  /** @type {import('./validate-limits.js').ScoreEnv} */
  const env = {
    lastBar,
    beatsAt: undefined,
    assets: new Map(),
    parts: new Map(),
    notation: has(value, 'notation'),
    graphic: has(value, 'graphic'),
  };
  out.meter = checkMeter(ctx, own(value, 'meter'), env);
  out.parts = checkParts(ctx, own(value, 'parts'), env);
  out.assets = checkAssets(ctx, own(value, 'assets'), env);
  out.tempo = checkTempo(ctx, own(value, 'tempo'), env);
  out.sections = checkSections(ctx, own(value, 'sections'), env);
  if (has(value, 'printedBars')) out.printedBars = checkPrintedBars(ctx, own(value, 'printedBars'), env);
  if (has(value, 'notation')) out.notation = checkNotation(ctx, own(value, 'notation'));
  out.view = has(value, 'view') ? checkView(ctx, own(value, 'view'), 'view', env, true) : {};
  out.cues = checkCues(ctx, own(value, 'cues'), env);
  out.prompts = checkPrompts(ctx, own(value, 'prompts'), env, out.sections);
  out.reactions = checkReactions(ctx, own(value, 'reactions'), env);
  if (has(value, 'graphic')) out.graphic = checkGraphic(ctx, own(value, 'graphic'), env);
  // Only a score that is otherwise valid can be played, so only then is it replayed.
  if (ctx.count() === 0) checkSnapshotSize(ctx, /** @type {Score} */ (out), env.cueOrder ?? []);
  return /** @type {Score} */ (out);
}
