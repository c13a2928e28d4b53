// Who may reach /publish… (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): the show's token (publish-token.js),
// at least MIN_PUBLISH_TOKEN_CHARS long, and guessing throttled per address: after
// PUBLISH_FAILURE_LIMITER's wrong tokens in a minute, an address gets 429 without its token being
// compared, for the rest of that minute (remembered by this isolate; the count itself is shared).

import { isPublisher } from './auth.js';
import { clientAddress, isLoopback } from '../http/client-address.js';
import { edgeError } from '../http/http.js';
import { publishTokenFor, unauthorizedMessage } from './publish-token.js';
import { RETRY_AFTER_S, withinLimit } from './rate-limits.js';

/** The same minimum as the venue's control token (docs/explanation/threat-model.md#nothing-but-the-console-reaches-the-control-listener). */
export const MIN_PUBLISH_TOKEN_CHARS = 16;
const BLOCK_MS = RETRY_AFTER_S.PUBLISH_FAILURE_LIMITER * 1000;
const MAX_BLOCKED = 10_000;
/** @type {Map<string, number>} address → blocked until (ms) */
const blocked = new Map();

/**
 * Why a publish token is unusable, or null when it is fine (empty is "not set": 401 as before).
 * @param {string} name the secret's name
 * @param {string} token
 * @returns {string | null}
 */
export function weakTokenReason(name, token) {
  if (token === '' || token.length >= MIN_PUBLISH_TOKEN_CHARS) return null;
  return `${name} is ${token.length} characters; a publish token must be at least ${MIN_PUBLISH_TOKEN_CHARS} (e.g. openssl rand -base64 32 | npx wrangler secret put ${name} -c edge-worker/wrangler.jsonc)`;
}

/**
 * @param {Request} request any /publish… request
 * @param {Env} env
 * @param {string | null} show
 * @returns {Promise<Response | null>} the refusal, or null: the publisher may go on
 */
export async function refusePublisher(request, env, show) {
  const expected = publishTokenFor(env, show);
  const weak = weakTokenReason(expected.name, expected.token);
  if (weak) {
    console.error(`edge: refusing to publish: ${weak}`);
    return edgeError('WEAK_PUBLISH_TOKEN', { message: weak });
  }
  const address = clientAddress(request);
  const exempt = isLoopback(address);
  const until = blocked.get(address) ?? 0;
  if (!exempt && until > Date.now()) return throttled(until);
  if (await isPublisher(request, expected.token)) return null;
  if (!exempt && !(await withinLimit(env, 'PUBLISH_FAILURE_LIMITER', address))) {
    if (blocked.size >= MAX_BLOCKED) blocked.delete(blocked.keys().next().value);
    const next = Date.now() + BLOCK_MS;
    blocked.set(address, next);
    return throttled(next);
  }
  return edgeError('UNAUTHORIZED', { message: unauthorizedMessage(show, expected) });
}

/** @param {number} until */
function throttled(until) {
  const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  return edgeError('AUTH_THROTTLED', {
    message: `too many wrong publish tokens from this address; try again in ${seconds} s`,
    headers: {
      'retry-after': String(seconds),
    },
  });
}
