// The short key in the musicians' part-page URL (README.md, "Part pages"; SECURITY.md): shown
// only on the console (control listener), never in an audience URL, so a phone that scanned the
// audience QR code cannot reach the part pages. Derived from the control token, so a venue server
// restarted with the same --token (systemd, crash resume) keeps the tablets' links working, and a
// random token gives a new key every start. The key reveals nothing about the token (HMAC).

import { createHmac, createHash, timingSafeEqual } from 'node:crypto';

/** 10 base64url characters: 60 bits, beyond guessing at the audience listener's 20 requests/s. */
export const PART_KEY_CHARS = 10;

/**
 * The part-page key for a control token, and a constant-time check of a presented key.
 * @param {string} token the control token
 * @returns {{ key: string, matches: (candidate: unknown) => boolean }}
 */
export function createPartKey(token) {
  const key = createHmac('sha256', token).update('tutti part pages').digest('base64url').slice(0, PART_KEY_CHARS);
  const digest = (s) => createHash('sha256').update(s).digest();
  const expected = digest(key);
  return {
    key,
    matches: (candidate) => typeof candidate === 'string' && timingSafeEqual(digest(candidate), expected),
  };
}
