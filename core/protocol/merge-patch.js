// RFC 7396 JSON Merge Patch: how a delta turns the state at seq-1 into the state at seq.
// Arrays are replaced whole (that is the RFC), so state that changes piece by piece is kept
// in objects keyed by id, which keeps deltas small.

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Apply a merge patch to a target without mutating either (RFC 7396 §2).
 * @param {unknown} target
 * @param {unknown} patch
 * @returns {unknown} the patched value
 */
export function applyMergePatch(target, patch) {
  if (!isPlainObject(patch)) return patch;
  /** @type {Record<string, unknown>} */
  const result = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/**
 * Deep equality of JSON values (key order ignored).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/**
 * The smallest merge patch turning `from` into `to`, or `undefined` when they are equal.
 * Both must be JSON values whose objects hold no `null` members (a null cannot be expressed
 * by a merge patch: it means "delete").
 * @param {unknown} from
 * @param {unknown} to
 * @returns {unknown}
 */
export function createMergePatch(from, to) {
  if (!isPlainObject(from) || !isPlainObject(to)) {
    return jsonEqual(from, to) ? undefined : to;
  }
  /** @type {Record<string, unknown>} */
  const patch = {};
  let changed = false;
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) {
      patch[key] = null;
      changed = true;
    }
  }
  for (const [key, value] of Object.entries(to)) {
    const sub = Object.hasOwn(from, key) ? createMergePatch(from[key], value) : value;
    if (sub !== undefined) {
      patch[key] = sub;
      changed = true;
    }
  }
  return changed ? patch : undefined;
}

/**
 * A copy of a JSON value with every `null` object member removed, so that the value can be
 * carried by merge patches (where null means delete) without ambiguity.
 * @param {unknown} value
 * @returns {unknown}
 */
export function withoutNulls(value) {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isPlainObject(value)) return value;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null && member !== undefined) out[key] = withoutNulls(member);
  }
  return out;
}
