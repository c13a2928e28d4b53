// The generic building blocks of the score rules: safe reads of untrusted objects, checks for a
// single value (whole number, number, text, list, object with known keys) that report one problem
// in the composer's words, and small wording helpers. Nothing here knows about scores.

import { describeValue, didYouMean, quote } from './format-problems.js';

/**
 * Where the rules report problems (created by validate.js).
 * @typedef {object} CheckContext
 * @property {(path: string, message: string) => void} add  record a problem at a path
 * @property {() => number} count                          problems recorded so far, shown or not
 */

/**
 * A plain JSON-style object (not null, not a list).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  // toString rather than a prototype check: objects from another realm (vm, workers) are fine too.
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.toString.call(value) === '[object Object]'
  );
}

/**
 * An own property of `obj`, never an inherited one (so "constructor" or "__proto__" read as absent).
 * @param {Record<string, unknown>} obj
 * @param {string} key
 * @returns {any}
 */
export function own(obj, key) {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Whether `obj` has its own property `key`.
 * @param {Record<string, unknown>} obj
 * @param {string} key
 * @returns {boolean}
 */
export function has(obj, key) {
  return Object.hasOwn(obj, key);
}

/**
 * The path of a member: `join('view', 'text')` is `view.text`, `join('', 'id')` is `id`.
 * @param {string} path
 * @param {string} key
 * @returns {string}
 */
export function join(path, key) {
  return path ? `${path}.${key}` : key;
}

/**
 * Length in code points (as JSON Schema's maxLength counts), so an emoji counts once.
 * @param {string} text
 * @returns {number}
 */
export function chars(text) {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/**
 * Items as an English list: `a`, `a or b`, `a, b or c`.
 * @param {ReadonlyArray<string>} items
 * @returns {string}
 */
export function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * A noun with its indefinite article: `an image asset`, `a part`.
 * @param {string} noun
 * @returns {string}
 */
export function article(noun) {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/**
 * A value as shown in "X is not a valid Y": strings in quotes, anything else described.
 * @param {unknown} value
 * @returns {string}
 */
export function shown(value) {
  return typeof value === 'string' ? quote(value) : describeValue(value);
}

/**
 * Report every key of `obj` that is not in `allowed`, suggesting the closest allowed key.
 * @param {CheckContext} ctx
 * @param {Record<string, unknown>} obj
 * @param {string} path
 * @param {ReadonlyArray<string>} allowed
 */
export function checkKeys(ctx, obj, path, allowed) {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const guess = didYouMean(key, allowed);
    const hint = guess ? `did you mean '${guess}'?` : `allowed here: ${allowed.join(', ')}`;
    ctx.add(path, `unknown key ${quote(key).replace(/^"|"$/g, "'")} (${hint})`);
  }
}

/**
 * A whole number from `min` to `max`; reports a problem naming `what` otherwise.
 * @param {CheckContext} ctx
 * @param {any} value
 * @param {string} path
 * @param {number} min
 * @param {number} max
 * @param {string} what  e.g. 'the total number of bars'
 * @returns {boolean} whether the value is fine
 */
export function checkInteger(ctx, value, path, min, max, what) {
  if (Number.isInteger(value) && value >= min && value <= max) return true;
  ctx.add(path, `expected ${what}, a whole number from ${min} to ${max}, got ${describeValue(value)}`);
  return false;
}

/**
 * A finite number from `min` to `max`; reports a problem naming `what` otherwise.
 * @param {CheckContext} ctx
 * @param {any} value
 * @param {string} path
 * @param {number} min
 * @param {number} max
 * @param {string} what  e.g. 'a tempo in beats per minute'
 * @returns {boolean} whether the value is fine
 */
export function checkNumber(ctx, value, path, min, max, what) {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return true;
  ctx.add(path, `expected ${what}, a number from ${min} to ${max}, got ${describeValue(value)}`);
  return false;
}

/**
 * Text of `min` to `max` code points; with `blank: false`, whitespace alone counts as empty.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {{ min?: number, max: number, what: string, blank?: boolean }} rule
 * @returns {boolean} whether the value is fine
 */
export function checkString(ctx, value, path, { min = 0, max, what, blank = true }) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected ${what} (text in double quotes), got ${describeValue(value)}`);
    return false;
  }
  const n = chars(value);
  if (n < min || (!blank && value.trim() === '')) {
    ctx.add(path, `${what} is empty; write at least ${min} character${min === 1 ? '' : 's'}`);
    return false;
  }
  if (n > max) {
    ctx.add(path, `${what} is ${n} characters long; the limit is ${max}`);
    return false;
  }
  return true;
}

/**
 * A list of at most `max` entries. An absent optional list is no problem but returns false
 * (nothing to check); a required one must be present and not empty.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {number} max
 * @param {string} what  the entries, with an example
 * @param {boolean} required
 * @returns {boolean} whether there are entries to check
 */
export function checkArray(ctx, value, path, max, what, required) {
  if (value === undefined && !required) return false;
  if (!Array.isArray(value)) {
    ctx.add(path, value === undefined ? `missing: ${what}` : `expected a list [ ... ] of ${what}, got ${describeValue(value)}`);
    return false;
  }
  if (value.length > max) {
    ctx.add(path, `${value.length} entries is more than the limit of ${max}`);
    return false;
  }
  if (required && value.length === 0) {
    ctx.add(path, `the list is empty: ${what}`);
    return false;
  }
  return true;
}

/**
 * An object whose keys are all in `keys` (unknown keys are reported, but the entry is still
 * checked); returns false only when it is not an object at all.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {string} what  the entry, with an example
 * @param {ReadonlyArray<string>} keys
 * @returns {value is Record<string, unknown>}
 */
export function checkEntry(ctx, value, path, what, keys) {
  if (!isObject(value)) {
    ctx.add(path, `expected ${what} (an object { ... }), got ${describeValue(value)}`);
    return false;
  }
  checkKeys(ctx, value, path, keys);
  return true;
}
