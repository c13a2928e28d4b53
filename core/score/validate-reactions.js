// Rules for reaction windows (docs/reference/score-format.md#reactions): stretches of the piece during which
// phones show a Tap button and the audience's taps per second, smoothed and normalised 0–1, are
// published a few times a second. Windows do not overlap.

import { SCORE_LIMITS } from './validate-limits.js';
import { checkArray, checkEntry, checkNumber, checkString, has, own } from './validate-primitives.js';
import { checkPosition, compare, positionText } from './validate-timing.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').Reaction} Reaction
 */

export const REACTION_KEYS = ['at', 'until', 'label', 'full'];

/**
 * The reaction windows (optional). Check after the meter. Returns them sorted by position.
 * @param {CheckContext} ctx
 * @param {any} value the score's `reactions`
 * @param {ScoreEnv} env
 * @returns {Reaction[]}
 */
export function checkReactions(ctx, value, env) {
  const example = '{ "at": { "bar": 20 }, "until": { "bar": 28 }, "label": "Applaud" }';
  if (!checkArray(ctx, value, 'reactions', SCORE_LIMITS.reactions, `reaction windows such as ${example}`, false)) return [];
  /** @type {{ reaction: any, path: string }[]} */
  const out = [];
  value.forEach((entry, i) => {
    const path = `reactions[${i}]`;
    if (!checkEntry(ctx, entry, path, `a reaction window such as ${example}`, REACTION_KEYS)) return;
    /** @type {any} */
    const reaction = {};
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where the Tap button appears, e.g. { "bar": 20 }');
    else reaction.at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
    if (!has(entry, 'until'))
      ctx.add(`${path}.until`, 'missing: where it goes again, e.g. { "bar": 28 } (that beat is no longer in the window)');
    else reaction.until = checkPosition(ctx, own(entry, 'until'), `${path}.until`, env);
    if (reaction.at && reaction.until && compare(reaction.until, reaction.at) <= 0) {
      ctx.add(
        `${path}.until`,
        `the window must end after it starts (${positionText(reaction.at)}), not at ${positionText(reaction.until)}`,
      );
      reaction.until = undefined;
    }
    if (has(entry, 'label')) {
      checkString(ctx, own(entry, 'label'), `${path}.label`, {
        min: 1,
        max: SCORE_LIMITS.optionLabelChars,
        what: 'the button text',
        blank: false,
      });
      reaction.label = own(entry, 'label');
    }
    if (has(entry, 'full')) {
      checkNumber(ctx, own(entry, 'full'), `${path}.full`, 1, 1_000_000, 'the taps per second that read as level 1');
      reaction.full = own(entry, 'full');
    }
    out.push({ reaction, path });
  });
  const placed = out.filter((r) => r.reaction.at && r.reaction.until).sort((a, b) => compare(a.reaction.at, b.reaction.at));
  for (let k = 1; k < placed.length; k += 1) {
    if (compare(placed[k].reaction.at, placed[k - 1].reaction.until) < 0) {
      ctx.add(
        `${placed[k].path}.at`,
        `starts at ${positionText(placed[k].reaction.at)}, inside ${placed[k - 1].path} (until ${positionText(placed[k - 1].reaction.until)}); reaction windows do not overlap`,
      );
    }
  }
  return out.map((r) => r.reaction).sort((a, b) => (a.at && b.at ? compare(a.at, b.at) : 0));
}
