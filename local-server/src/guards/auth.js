// Bearer-token check for the control listener, in constant time.

import { timingSafeEqual, createHash } from 'node:crypto';

/**
 * Shortest control token `--token` accepts (docs/explanation/threat-model.md): a 4-digit token fell to guessing at
 * about 5,000 tries a second; 16 characters is out of reach even without the throttle.
 */
export const MIN_CONTROL_TOKEN_CHARS = 16;

/**
 * Compare a presented Authorization header with the expected token without leaking, through
 * timing, how much of it matched (hashing first makes both sides the same length).
 * @param {string | undefined} header
 * @param {string} token
 * @returns {boolean}
 */
export function bearerMatches(header, token) {
  // The scheme name is case-insensitive in HTTP (RFC 9110 §11.1): "bearer x" is as good as "Bearer x".
  const match = typeof header === 'string' ? /^bearer +(.*)$/i.exec(header) : null;
  if (!match) return false;
  const digest = (s) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
