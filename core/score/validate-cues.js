// Rules about what the audience sees and hears and what devices receive: views (the initial one
// and the ones cues merge in), free-form view data, audio and OSC cues, and the list of cues.

import { isColour } from '#core/protocol/colour.js';
import { FULL_SCORE } from './audience-score.js';
import { describeValue, quote } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import { checkOscAddress, checkReference } from './validate-media.js';
import {
  chars,
  checkArray,
  checkEntry,
  checkKeys,
  checkNumber,
  checkString,
  has,
  isObject,
  join,
  list,
  own,
} from './validate-primitives.js';
import { checkPosition, compare } from './validate-timing.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').View} View
 * @typedef {import('./validate-limits.js').Cue} Cue
 */

const VIEW_KEYS = ['text', 'instruction', 'color', 'image', 'data', 'score'];
/** The range of an OSC `i` (a 32-bit signed integer). */
const OSC_INT_MIN = -2_147_483_648;
const OSC_INT_MAX = 2_147_483_647;
const CUE_KINDS = ['view', 'audio', 'osc'];

/**
 * A view: the score's initial one (`initial`), or one a cue merges into the audience view, where
 * null removes a key and the view must not be empty. Check after the assets (images are references).
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {ScoreEnv} env
 * @param {boolean} initial
 * @returns {View}
 */
export function checkView(ctx, value, path, env, initial) {
  if (!isObject(value)) {
    ctx.add(path, `expected a view such as { "text": "Welcome", "color": "#101820" }, got ${describeValue(value)}`);
    return {};
  }
  checkKeys(ctx, value, path, VIEW_KEYS);
  const out = {};
  for (const key of VIEW_KEYS) {
    if (!has(value, key)) continue;
    const member = own(value, key);
    out[key] = member;
    // A cue's view is merged into the audience view (RFC 7396), so null there removes the key.
    if (member === null) {
      if (initial) ctx.add(join(path, key), `the initial view has nothing to remove; leave out "${key}" instead of writing null`);
      continue;
    }
    const at = join(path, key);
    if (key === 'text') checkString(ctx, member, at, { max: SCORE_LIMITS.textChars, what: 'the text' });
    else if (key === 'instruction') checkString(ctx, member, at, { max: SCORE_LIMITS.instructionChars, what: 'the instruction' });
    else if (key === 'color') {
      if (!isColour(member)) ctx.add(at, `expected a colour written #rgb or #rrggbb (e.g. "#1a1a2e"), got ${describeValue(member)}`);
    } else if (key === 'image') checkReference(ctx, member, at, env.assets, 'image', 'image asset');
    else if (key === 'score') checkShownScore(ctx, member, at, env);
    else if (!isObject(member)) ctx.add(at, `expected an object { ... } of free-form values, got ${describeValue(member)}`);
    else if (checkData(ctx, member, at) && checkTileColours(ctx, member, at)) out.data = JSON.parse(JSON.stringify(member));
  }
  if (!initial && Object.keys(value).length === 0) ctx.add(path, `the view is empty; give at least one of ${list(VIEW_KEYS)}`);
  return out;
}

/**
 * `score`: the part whose engraved pages the audience follows, or "all"
 * (docs/reference/notation.md#the-score-on-the-audiences-phones). Only a score that names its
 * notation has pages to show.
 */
function checkShownScore(ctx, value, path, env) {
  if (typeof value !== 'string') {
    ctx.add(
      path,
      `expected "${FULL_SCORE}" (the full score) or a part's id, whose engraved pages the audience follows, got ${describeValue(value)}`,
    );
    return;
  }
  if (!env.notation) {
    const graphic = env.graphic ? ' (a graphic score is shown on the part pages only)' : '';
    ctx.add(
      path,
      `the score has no engraved notation to show the audience${graphic}; name the MusicXML file it was made from in "notation" (tutti import does), or leave out "score"`,
    );
    return;
  }
  if (value !== FULL_SCORE) checkReference(ctx, value, path, env.parts, undefined, 'part');
}

/** Free-form JSON: plain values only, bounded depth, node count and size; no "__proto__" keys. */
function checkData(ctx, data, path) {
  let nodes = 0;
  let ok = true;
  const walk = (value, at, depth) => {
    if (!ok) return;
    if (++nodes > SCORE_LIMITS.dataNodes) {
      ctx.add(path, `too many values (more than ${SCORE_LIMITS.dataNodes}); keep view data small`);
      ok = false;
    } else if (depth > SCORE_LIMITS.dataDepth) {
      ctx.add(at, `nested more than ${SCORE_LIMITS.dataDepth} levels deep`);
      ok = false;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${at}[${i}]`, depth + 1));
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        if (key === '__proto__') {
          ctx.add(at, 'the key "__proto__" is not allowed in view data');
          ok = false;
          return;
        }
        walk(value[key], /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${quote(key)}]`, depth + 1);
      }
    } else if (!(
      value === null ||
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )) {
      ctx.add(at, `view data holds JSON values only (text, numbers, true/false, null, lists, objects), got ${describeValue(value)}`);
      ok = false;
    }
  };
  walk(data, path, 0);
  if (!ok) return false;
  const size = JSON.stringify(data).length;
  if (size > SCORE_LIMITS.dataChars) {
    ctx.add(path, `the data is ${Math.ceil(size / 1024)} KB as JSON; the limit is ${SCORE_LIMITS.dataChars / 1024} KB per view`);
    return false;
  }
  return true;
}

/**
 * The audience page draws `data.tiles` ({ id: { c, s } }) as coloured cells: each `c` (unless
 * null, which a cue uses to remove it) must be a colour, or phones would apply whatever CSS it
 * holds (docs/explanation/threat-model.md).
 */
function checkTileColours(ctx, data, path) {
  const tiles = own(data, 'tiles');
  if (!isObject(tiles)) return true;
  let ok = true;
  for (const id of Object.keys(tiles)) {
    const tile = tiles[id];
    if (!isObject(tile) || !has(tile, 'c')) continue;
    const colour = own(tile, 'c');
    if (colour === null || isColour(colour)) continue;
    const at = /^[A-Za-z_$][\w$]*$/.test(id) ? `${path}.tiles.${id}.c` : `${path}.tiles[${quote(id)}].c`;
    ctx.add(at, `expected a tile colour written #rgb or #rrggbb (e.g. "#1a1a2e"), got ${describeValue(colour)}`);
    ok = false;
  }
  return ok;
}

function checkAudio(ctx, value, path, env) {
  if (!checkEntry(ctx, value, path, 'an audio cue such as { "asset": "bell", "gain": 0.8 }', ['asset', 'gain'])) return undefined;
  if (!has(value, 'asset')) ctx.add(`${path}.asset`, 'missing: the id of the audio asset to play');
  else checkReference(ctx, own(value, 'asset'), `${path}.asset`, env.assets, 'audio', 'audio asset');
  const gain = has(value, 'gain') ? own(value, 'gain') : 1;
  checkNumber(ctx, gain, `${path}.gain`, 0, 2, 'a gain (1 = as recorded)');
  return { asset: own(value, 'asset'), gain };
}

function checkOsc(ctx, value, path, env) {
  if (!checkEntry(ctx, value, path, 'an OSC cue such as { "address": "/cue", "args": [1] }', ['part', 'address', 'args'])) return undefined;
  const out = {};
  if (has(value, 'part')) {
    checkReference(ctx, own(value, 'part'), `${path}.part`, env.parts, undefined, 'part');
    out.part = own(value, 'part');
  }
  if (!has(value, 'address')) ctx.add(`${path}.address`, 'missing: the OSC address to send, such as "/cue"');
  else checkOscAddress(ctx, own(value, 'address'), `${path}.address`, 'OSC address');
  out.address = own(value, 'address');
  const args = has(value, 'args') ? own(value, 'args') : [];
  if (!Array.isArray(args)) ctx.add(`${path}.args`, `expected a list [ ... ] of OSC arguments, got ${describeValue(args)}`);
  else if (args.length > SCORE_LIMITS.oscArgs)
    ctx.add(`${path}.args`, `${args.length} arguments is more than the limit of ${SCORE_LIMITS.oscArgs}`);
  else {
    args.forEach((arg, i) => {
      const at = `${path}.args[${i}]`;
      if (typeof arg === 'string') {
        if (chars(arg) > SCORE_LIMITS.oscStringChars) ctx.add(at, `the text is longer than ${SCORE_LIMITS.oscStringChars} characters`);
      } else if (!(typeof arg === 'boolean' || (typeof arg === 'number' && Number.isFinite(arg)))) {
        ctx.add(at, `OSC arguments can be numbers, text or true/false, got ${describeValue(arg)}`);
      } else if (typeof arg === 'number' && Number.isInteger(arg) && (arg < OSC_INT_MIN || arg > OSC_INT_MAX)) {
        // A whole number goes out as OSC's 32-bit `i`, the integer type every OSC 1.0 receiver must
        // read (64-bit `h` is optional); a larger one cannot be encoded, and the cue would fail.
        ctx.add(at, `${arg} does not fit an OSC integer (32 bits: ${OSC_INT_MIN} to ${OSC_INT_MAX}); send it as text ("${arg}")`);
      }
    });
  }
  out.args = Array.isArray(args) ? [...args] : args;
  return out;
}

/**
 * The cues (optional): a position, an optional label and exactly one of view, audio or osc each.
 * Check after the meter, parts and assets. Returns them sorted stably by position.
 * @param {CheckContext} ctx
 * @param {any} value the score's `cues`
 * @param {ScoreEnv} env
 * @returns {Cue[]}
 */
export function checkCues(ctx, value, env) {
  if (!checkArray(ctx, value, 'cues', SCORE_LIMITS.cues, 'cues such as { "at": { "bar": 5 }, "view": { "text": "Now" } }', false))
    return [];
  const out = [];
  value.forEach((cue, i) => {
    const path = `cues[${i}]`;
    if (!checkEntry(ctx, cue, path, 'a cue such as { "at": { "bar": 5 }, "view": { "text": "Now" } }', ['at', 'label', ...CUE_KINDS]))
      return;
    const result = {};
    if (!has(cue, 'at')) ctx.add(`${path}.at`, 'missing: where the cue happens, e.g. { "bar": 5, "beat": 3 }');
    else result.at = checkPosition(ctx, own(cue, 'at'), `${path}.at`, env);
    if (has(cue, 'label')) {
      checkString(ctx, own(cue, 'label'), `${path}.label`, { max: SCORE_LIMITS.labelChars, what: 'the label' });
      result.label = own(cue, 'label');
    }
    const kinds = CUE_KINDS.filter((k) => has(cue, k));
    if (kinds.length === 0) ctx.add(path, `a cue needs one of ${list(CUE_KINDS)}`);
    else if (kinds.length > 1)
      ctx.add(
        path,
        `a cue carries exactly one of ${list(CUE_KINDS)}, this one has ${kinds.join(' and ')}; split it into separate cues at the same position`,
      );
    if (has(cue, 'view')) result.view = checkView(ctx, own(cue, 'view'), `${path}.view`, env, false);
    if (has(cue, 'audio')) result.audio = checkAudio(ctx, own(cue, 'audio'), `${path}.audio`, env);
    if (has(cue, 'osc')) result.osc = checkOsc(ctx, own(cue, 'osc'), `${path}.osc`, env);
    out.push({ cue: result, index: i });
  });
  // Stable by (bar, beat), then file order. Only used when every position is valid.
  out.sort((a, b) => (a.cue.at && b.cue.at ? compare(a.cue.at, b.cue.at) : 0) || a.index - b.index);
  env.cueOrder = out.map((entry) => entry.index); // to name a sorted cue by its place in the file
  return out.map((entry) => entry.cue);
}
