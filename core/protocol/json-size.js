// The serialized size of a JSON object kept up to date while RFC 7396 merge patches are applied
// to it, without serializing the whole object again: each patch costs time in proportion to
// the patch, not to the object. The score validator uses it to replay a score's audience view
// over 100,000 cues and know the snapshot size at every point (core/score/validate-state-size.js).
// Exact: the size is what `JSON.stringify(withoutNulls(applyMergePatch(…)))` would give, in
// UTF-8 bytes (the unit of frame limits on the wire).

import { isPlainObject, withoutNulls } from './merge-patch.js';

/**
 * UTF-8 byte length of a string produced by JSON.stringify (which escapes lone surrogates, so
 * every surrogate met here is part of a pair).
 * @param {string} text
 * @returns {number}
 */
export function utf8Bytes(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 2; // a pair: 2 units → 4 bytes
      i += 1;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * @typedef {{ key: number, value: number, object: SizedObject | null }} Entry
 *   key: bytes of the quoted key; value: bytes of the value; object: set when the value is an object
 * @typedef {{ entries: Map<string, Entry>, sum: number }} SizedObject
 *   sum: Σ (key + 1 (colon) + value) over the entries
 */

/**
 * Bytes of a value that is not an object (numbers, text, true/false, lists).
 * @param {unknown} value
 */
function leafBytes(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4; // JSON writes NaN/Infinity as null
  if (typeof value === 'boolean') return value ? 4 : 5;
  return utf8Bytes(JSON.stringify(withoutNulls(value)));
}

/** @param {SizedObject} node */
const bytesOf = (node) => 2 + node.sum + Math.max(0, node.entries.size - 1);

/** @returns {SizedObject} */
const emptyObject = () => ({ entries: new Map(), sum: 0 });

/**
 * Apply a merge patch object to a sized object in place (RFC 7396 semantics, as
 * core/protocol/merge-patch.js applyMergePatch, with null members dropped as withoutNulls does).
 * @param {SizedObject} node
 * @param {Record<string, unknown>} patch
 */
function applyToNode(node, patch) {
  for (const key in patch) {
    if (!Object.hasOwn(patch, key)) continue;
    const value = patch[key];
    const old = node.entries.get(key);
    if (value === null || value === undefined) {
      if (old) {
        node.sum -= old.key + 1 + old.value;
        node.entries.delete(key);
      }
      continue;
    }
    let entry = old;
    if (entry) node.sum -= entry.key + 1 + entry.value;
    else {
      entry = { key: utf8Bytes(JSON.stringify(key)), value: 0, object: null };
      node.entries.set(key, entry);
    }
    if (isPlainObject(value)) {
      // Merging into an object member recurses; into anything else it starts from {} (RFC 7396).
      entry.object ??= emptyObject();
      applyToNode(entry.object, /** @type {Record<string, unknown>} */ (value));
      entry.value = bytesOf(entry.object);
    } else {
      entry.object = null;
      entry.value = leafBytes(value);
    }
    node.sum += entry.key + 1 + entry.value;
  }
}

/**
 * A JSON object (starting empty) whose serialized size follows the merge patches applied to it.
 * @returns {{ apply: (patch: Record<string, unknown>) => void, bytes: () => number }}
 */
export function createSizedJson() {
  const root = emptyObject();
  return {
    apply(patch) {
      if (isPlainObject(patch)) applyToNode(root, patch);
    },
    bytes: () => bytesOf(root),
  };
}
