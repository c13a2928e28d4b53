// The short key in the musicians' part-page URL (docs/reference/part-key.md; docs/how-to/part-pages.md#part-pages)
// : shown only on the console (control listener), never in an audience URL, so a phone
// that scanned the audience QR code cannot reach the part pages. It is random, not derived from
// the control token: a key photographed off a tablet says nothing about the token, and it can be
// replaced alone (issue 40 item 13). Kept in the state folder, so a venue server restarted
// (systemd, crash resume) keeps the tablets' links working; the console rotates it, and the old
// key stops working at once.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileNoFollow, replaceFile } from '../files/safe-write.js';

/** 10 base64url characters: 60 bits, beyond guessing at the audience listener's 20 requests/s. */
export const PART_KEY_CHARS = 10;
/** The key's file in the state folder (state-dir.js). */
export const PART_KEY_FILE = 'part-key';
const KEY_FORM = new RegExp(`^[A-Za-z0-9_-]{${PART_KEY_CHARS}}$`);

const newKey = () => randomBytes(PART_KEY_CHARS).toString('base64url').slice(0, PART_KEY_CHARS);
const digest = (s) => createHash('sha256').update(s).digest();

/** The key saved in `file`, or null when there is none, it is not a key, or the name is a link. */
async function readKey(file) {
  try {
    const text = (await readFileNoFollow(file)).toString('utf8').trim();
    return KEY_FORM.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * @typedef {object} PartKey
 * @property {string} key the key now
 * @property {(candidate: unknown) => boolean} matches a constant-time check of a presented key against the key now
 * @property {() => Promise<string>} rotate a new random key: the old one stops matching at once; resolves once saved
 * @property {(listener: (key: string) => void) => void} onRotate told after every rotation (open part streams are closed)
 */

/**
 * The part-page key: the one saved in `file`, else a new random one (saved there, readable by
 * this user only, never through a link: files/safe-write.js).
 * @param {{ file?: string | null, onError?: (err: Error) => void }} [options] file: null keeps the key
 *   in memory only (a new one every start); onError: the file could not be written (the key still works)
 * @returns {Promise<PartKey>}
 */
export async function createPartKey({ file = null, onError = () => {} } = {}) {
  const saved = file ? await readKey(file) : null;
  let key = saved ?? newKey();
  let expected = digest(key);
  /** @type {Array<(key: string) => void>} */
  const listeners = [];
  const save = async () => {
    if (!file) return;
    try {
      await replaceFile(file, `${key}\n`, { mode: 0o600 });
    } catch (err) {
      onError(/** @type {Error} */ (err));
    }
  };
  if (file && saved === null) await save();
  return {
    get key() {
      return key;
    },
    matches: (candidate) => typeof candidate === 'string' && timingSafeEqual(digest(candidate), expected),
    async rotate() {
      key = newKey();
      expected = digest(key);
      for (const listener of listeners) listener(key);
      const now = key;
      await save();
      return now;
    },
    onRotate: (listener) => listeners.push(listener),
  };
}
