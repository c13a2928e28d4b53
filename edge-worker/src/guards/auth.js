// The publisher's bearer token (which secret it must match: publish-token.js). Compared in constant time over SHA-256 digests so neither the
// content nor the length of the secret leaks through timing.

const encoder = new TextEncoder();

/** @param {string} text */
async function digest(text) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b same length as a
 */
function equalBytes(a, b) {
  // workerd provides timingSafeEqual; keep a plain constant-time loop for other runtimes.
  const subtle = /** @type {any} */ (crypto.subtle);
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Whether the request carries `Authorization: Bearer <expected>`. An empty `expected` (the secret
 * is not set) accepts nobody.
 * @param {Request} request
 * @param {string} expected the show's publish token (publish-token.js says which one)
 * @returns {Promise<boolean>}
 */
export async function isPublisher(request, expected) {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const given = match ? match[1].trim() : '';
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  const same = equalBytes(a, b);
  return same && expected.length > 0 && given.length > 0;
}
