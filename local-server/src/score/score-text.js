// The one written form of a score saved by the editor (docs/reference/score-editing-api.md#the-written-form):
// JSON with a 2-space indent and a trailing newline, the top-level keys in the order of
// scores/score.schema.json (the order of every sample score), keys the schema does not list
// after them as received, and every nested object as received. Saving the same score twice
// writes the same bytes, so a composer can diff the file in git.

import { createHash } from 'node:crypto';
import { SCORE_KEYS } from '#core/score/validate.js';

/** The top-level keys in the written order: the validator's, which scores/score.schema.json lists alike. */
export const TOP_LEVEL_ORDER = SCORE_KEYS;

/**
 * `score` with its top-level keys in the written order (nested values untouched).
 * @param {Record<string, unknown>} score
 * @returns {Record<string, unknown>}
 */
export function orderScoreKeys(score) {
  const known = TOP_LEVEL_ORDER.filter((key) => Object.hasOwn(score, key));
  const others = Object.keys(score).filter((key) => !TOP_LEVEL_ORDER.includes(key));
  // fromEntries defines own keys, so a "__proto__" key stays data, never a prototype.
  return Object.fromEntries([...known, ...others].map((key) => [key, score[key]]));
}

/**
 * The bytes the editor writes for `score`.
 * @param {Record<string, unknown>} score
 * @returns {string}
 */
export function scoreText(score) {
  return `${JSON.stringify(orderScoreKeys(score), null, 2)}\n`;
}

/**
 * A file's revision: the SHA-256 of its bytes, hex (docs/reference/score-editing-api.md#revision).
 * @param {string | Uint8Array} bytes
 * @returns {string}
 */
export function revisionOf(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}
