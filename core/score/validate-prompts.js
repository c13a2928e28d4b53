// Rules for the audience's prompts (docs/reference/score-format.md#prompts-and-branches): a question with 2–6
// options, open for a number of beats from a position; each option may name the section the show
// jumps to when it wins. One prompt is open at a time, and each closes before the piece ends.

import { describeValue, quote } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import { checkArray, checkEntry, checkInteger, checkString, has, own } from './validate-primitives.js';
import { checkPosition, positionText } from './validate-timing.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').Section} Section
 * @typedef {import('./validate-limits.js').Prompt} Prompt
 */

/** Prompt and option ids: what OSC receivers and the vote message name them by. */
export const PROMPT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const PROMPT_KEYS = ['id', 'at', 'beats', 'question', 'options'];
export const OPTION_KEYS = ['id', 'label', 'section'];

/**
 * Beat index of a position (0 = bar 1 beat 1) and the number of beats in the piece, from the
 * meter, or undefined while the meter is invalid.
 * @param {ScoreEnv} env
 */
function beatCounter(env) {
  const { beatsAt, lastBar } = env;
  if (!beatsAt || !lastBar) return undefined;
  const barStart = new Array(lastBar + 2).fill(0);
  for (let bar = 1; bar <= lastBar; bar += 1) barStart[bar + 1] = barStart[bar] + beatsAt(bar).beats;
  return { indexOf: (/** @type {{ bar: number, beat: number }} */ p) => barStart[p.bar] + p.beat - 1, total: barStart[lastBar + 1] };
}

/**
 * The prompts (optional). Check after the meter and the sections (options name sections by
 * their mark). Returns them sorted by position.
 * @param {CheckContext} ctx
 * @param {any} value the score's `prompts`
 * @param {ScoreEnv} env
 * @param {Section[]} sections the checked sections
 * @returns {Prompt[]}
 */
export function checkPrompts(ctx, value, env, sections) {
  if (
    !checkArray(
      ctx,
      value,
      'prompts',
      SCORE_LIMITS.prompts,
      'prompts such as { "id": "next", "at": { "bar": 9 }, "beats": 8, "question": "Where next?", "options": [ … ] }',
      false,
    )
  )
    return [];
  const counter = beatCounter(env);
  /** @type {Map<string, number>} mark → how many sections carry it */
  const marks = new Map();
  for (const s of sections) if (typeof s.mark === 'string') marks.set(s.mark, (marks.get(s.mark) ?? 0) + 1);
  const ids = new Map();
  /** @type {{ prompt: Prompt, path: string, open?: number, close?: number }[]} */
  const out = [];
  value.forEach((entry, i) => {
    const path = `prompts[${i}]`;
    if (
      !checkEntry(
        ctx,
        entry,
        path,
        'a prompt such as { "id": "next", "at": { "bar": 9 }, "beats": 8, "question": "Where next?", "options": [ … ] }',
        PROMPT_KEYS,
      )
    )
      return;
    /** @type {any} */
    const prompt = {};
    const id = own(entry, 'id');
    if (id === undefined) ctx.add(`${path}.id`, 'missing: a short id such as "next" (what OSC receivers and votes name it by)');
    else if (typeof id !== 'string' || !PROMPT_ID.test(id))
      ctx.add(
        `${path}.id`,
        `${typeof id === 'string' ? quote(id) : describeValue(id)} is not a valid prompt id; use 1 to 32 of A-Z a-z 0-9 - _, starting with a letter or digit`,
      );
    else if (ids.has(id)) ctx.add(`${path}.id`, `the id ${quote(id)} is already used by ${ids.get(id)}`);
    else ids.set(id, path);
    prompt.id = id;
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where the prompt opens, e.g. { "bar": 9 }');
    else prompt.at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
    const beats = own(entry, 'beats');
    if (beats === undefined) ctx.add(`${path}.beats`, `missing: how many beats the prompt stays open (1 to ${SCORE_LIMITS.promptBeats})`);
    else if (checkInteger(ctx, beats, `${path}.beats`, 1, SCORE_LIMITS.promptBeats, 'the number of beats the prompt stays open'))
      prompt.beats = beats;
    if (!has(entry, 'question'))
      ctx.add(`${path}.question`, `missing: the question phones show (1 to ${SCORE_LIMITS.questionChars} characters)`);
    else
      checkString(ctx, own(entry, 'question'), `${path}.question`, {
        min: 1,
        max: SCORE_LIMITS.questionChars,
        what: 'the question',
        blank: false,
      });
    prompt.question = own(entry, 'question');
    prompt.options = checkOptions(ctx, own(entry, 'options'), `${path}.options`, marks);
    const placed = { prompt, path, open: undefined, close: undefined };
    if (counter && prompt.at && prompt.beats) {
      placed.open = counter.indexOf(prompt.at);
      placed.close = placed.open + prompt.beats;
      if (placed.close > counter.total) {
        ctx.add(
          `${path}.beats`,
          `open for ${prompt.beats} beats from ${positionText(prompt.at)} runs ${placed.close - counter.total} beat(s) past the end of the piece; close it before the last beat ends`,
        );
      }
    }
    out.push(placed);
  });
  // One prompt at a time: phones show one set of buttons, and a branch decides what follows.
  const timed = out.filter((p) => p.open !== undefined).sort((a, b) => /** @type {number} */ (a.open) - /** @type {number} */ (b.open));
  for (let k = 1; k < timed.length; k += 1) {
    const before = timed[k - 1];
    const after = timed[k];
    if (/** @type {number} */ (after.open) < /** @type {number} */ (before.close)) {
      ctx.add(
        `${after.path}.at`,
        `opens at ${positionText(after.prompt.at)} while ${before.path} (${quote(before.prompt.id)}) is still open (${before.prompt.beats} beats from ${positionText(before.prompt.at)}); one prompt is open at a time`,
      );
    }
  }
  return out
    .map((p, n) => ({ p, n }))
    .sort((a, b) => (a.p.open ?? 0) - (b.p.open ?? 0) || a.n - b.n)
    .map(({ p }) => /** @type {Prompt} */ (p.prompt));
}

/**
 * 2–6 options, ids unique within the prompt, each with a label and optionally the mark of the
 * section that follows when it wins (a mark only one section carries).
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {Map<string, number>} marks
 */
function checkOptions(ctx, value, path, marks) {
  const what = 'options such as { "id": "storm", "label": "Storm", "section": "C" }';
  if (value === undefined) {
    ctx.add(path, `missing: ${SCORE_LIMITS.promptOptionsMin} to ${SCORE_LIMITS.promptOptionsMax} ${what}`);
    return [];
  }
  if (!checkArray(ctx, value, path, SCORE_LIMITS.promptOptionsMax, what, true)) return [];
  const list = /** @type {unknown[]} */ (value);
  if (list.length < SCORE_LIMITS.promptOptionsMin)
    ctx.add(path, `a prompt needs at least ${SCORE_LIMITS.promptOptionsMin} options, this one has ${list.length}`);
  const seen = new Set();
  return list.map((option, i) => {
    const at = `${path}[${i}]`;
    if (!checkEntry(ctx, option, at, what, OPTION_KEYS)) return {};
    const out = {};
    const id = own(option, 'id');
    if (id === undefined) ctx.add(`${at}.id`, 'missing: a short id such as "storm"');
    else if (typeof id !== 'string' || !PROMPT_ID.test(id))
      ctx.add(
        `${at}.id`,
        `${typeof id === 'string' ? quote(id) : describeValue(id)} is not a valid option id; use 1 to 32 of A-Z a-z 0-9 - _, starting with a letter or digit`,
      );
    else if (seen.has(id)) ctx.add(`${at}.id`, `the option id ${quote(id)} is used twice in this prompt`);
    else seen.add(id);
    out.id = id;
    if (!has(option, 'label')) ctx.add(`${at}.label`, `missing: the button text (1 to ${SCORE_LIMITS.optionLabelChars} characters)`);
    else
      checkString(ctx, own(option, 'label'), `${at}.label`, {
        min: 1,
        max: SCORE_LIMITS.optionLabelChars,
        what: 'the button text',
        blank: false,
      });
    out.label = own(option, 'label');
    if (has(option, 'section')) {
      const mark = own(option, 'section');
      out.section = mark;
      if (typeof mark !== 'string') ctx.add(`${at}.section`, `expected the mark of a section (text, e.g. "C"), got ${describeValue(mark)}`);
      else if (!marks.has(mark))
        ctx.add(
          `${at}.section`,
          `there is no section with mark ${quote(mark)} (${marks.size ? `known: ${[...marks.keys()].slice(0, 10).join(', ')}` : 'the score declares no sections'})`,
        );
      else if (/** @type {number} */ (marks.get(mark)) > 1)
        ctx.add(`${at}.section`, `${marks.get(mark)} sections carry the mark ${quote(mark)}; a branch needs a mark only one section has`);
    }
    return out;
  });
}
