// Bearer-token check for the control listener, in constant time.

import { timingSafeEqual, createHash } from 'node:crypto';

/**
 * Compare a presented Authorization header with the expected token without leaking, through
 * timing, how much of it matched (hashing first makes both sides the same length).
 * @param {string | undefined} header
 * @param {string} token
 * @returns {boolean}
 */
export function bearerMatches(header, token) {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const digest = (s) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}
