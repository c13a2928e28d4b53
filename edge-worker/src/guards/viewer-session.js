// A viewer's session (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): what makes one vote cost a join. The
// Worker signs `{device, show, expiry}` when a viewer joins (POST /session, limited per address by
// JOIN_LIMITER); POST /vote must carry it (`x-tutti-session`) for the same device id, so inventing
// device ids costs one rate-limited join each. WebSocket viewers join by connecting: the upgrade is
// limited the same way, and a socket votes for one device id only (viewer-rules.js).
//
// The key: SESSION_SECRET if the deployment sets one (`wrangler secret put SESSION_SECRET`, at
// least 32 characters), else derived from the default publish token (HMAC of PUBLISH_TOKEN: a new
// token ends every session, which a rotation after a leak wants anyway), else random per isolate
// (sessions then hold only within one isolate: set a secret).

import { DEVICE_ID } from '#core/votes/vote-message.js';
import { edgeError, json } from '../http/http.js';
import { RETRY_AFTER_S, withinLimit } from './rate-limits.js';
import { classifyClient } from './venue-address.js';
import { readBodyLimited } from '../http/body-limit.js';

/** Header a POST /vote carries the session in. */
export const SESSION_HEADER = 'x-tutti-session';
/** A session lasts this long (a show and then some); the page asks for a new one on every load. */
export const SESSION_TTL_MS = 12 * 3600_000;
const MIN_SECRET_CHARS = 32;
const encoder = new TextEncoder();

/** @type {{ source: string, key: Promise<CryptoKey> } | null} */
let keyCache = null;
let randomSecret = '';

/** @param {Uint8Array | ArrayBuffer} bytes */
const b64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** @param {string} text */
const fromB64url = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/**
 * @param {Env} env
 * @returns {Promise<CryptoKey>}
 */
function sessionKey(env) {
  const vars = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (env));
  const own = typeof vars.SESSION_SECRET === 'string' && vars.SESSION_SECRET.length >= MIN_SECRET_CHARS ? vars.SESSION_SECRET : '';
  const publish = typeof vars.PUBLISH_TOKEN === 'string' ? vars.PUBLISH_TOKEN : '';
  if (!own && !publish && !randomSecret) randomSecret = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const source = own ? `own:${own}` : publish ? `publish:${publish}` : `random:${randomSecret}`;
  if (keyCache?.source !== source) {
    const key = (async () => {
      const raw = await crypto.subtle.importKey('raw', encoder.encode(source), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      // A key of its own, never the publish token itself.
      const derived = await crypto.subtle.sign('HMAC', raw, encoder.encode('tutti viewer session v1'));
      return crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    })();
    keyCache = { source, key };
  }
  return keyCache.key;
}

/**
 * Sign a session for `device` in `show`.
 * @param {Env} env
 * @param {{ device: string, show: string | null, now?: number }} claims
 * @returns {Promise<{ token: string, expires: number }>}
 */
export async function signSession(env, { device, show, now = Date.now() }) {
  const expires = now + SESSION_TTL_MS;
  const body = b64url(encoder.encode(JSON.stringify({ d: device, s: show ?? '', e: expires })));
  const mac = await crypto.subtle.sign('HMAC', await sessionKey(env), encoder.encode(body));
  return { token: `${body}.${b64url(mac)}`, expires };
}

/**
 * @param {Env} env
 * @param {string | null} token
 * @param {string | null} show
 * @returns {Promise<{ ok: true, device: string } | { ok: false, reason: string }>}
 */
export async function verifySession(env, token, show) {
  if (!token) return { ok: false, reason: `no session: join first (POST session), then send it in ${SESSION_HEADER}` };
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || token.length > 512) return { ok: false, reason: 'the session is malformed' };
  let claims;
  try {
    const valid = await crypto.subtle.verify('HMAC', await sessionKey(env), fromB64url(mac), encoder.encode(body));
    if (!valid) return { ok: false, reason: 'the session is not signed by this edge' };
    claims = JSON.parse(new TextDecoder().decode(fromB64url(body)));
  } catch {
    return { ok: false, reason: 'the session is malformed' };
  }
  if (claims?.s !== (show ?? '')) return { ok: false, reason: 'the session is for another show' };
  if (!(Number.isFinite(claims.e) && claims.e > Date.now())) return { ok: false, reason: 'the session has expired: join again' };
  if (typeof claims.d !== 'string' || !DEVICE_ID.test(claims.d)) return { ok: false, reason: 'the session is malformed' };
  return { ok: true, device: claims.d };
}

/**
 * May this client join now? One unit of JOIN_LIMITER per address (VENUE_JOIN_LIMITER for the
 * venue's address, loopback exempt). Used by POST /session and the WebSocket upgrade.
 * @param {Request} request
 * @param {Env} env
 * @param {string | null} show
 * @param {Awaited<ReturnType<typeof classifyClient>>} [known] the client, if the caller classified it already
 * @returns {Promise<Response | null>} a 429 to answer, or null: go ahead
 */
export async function refuseJoin(request, env, show, known) {
  const client = known ?? (await classifyClient(request, env, show));
  if (client.kind === 'loopback') return null;
  const name = client.kind === 'venue' ? 'VENUE_JOIN_LIMITER' : 'JOIN_LIMITER';
  if (await withinLimit(env, name, `${show ?? ''}|${client.address}`)) return null;
  return edgeError('TOO_MANY_JOINS', {
    headers: { 'retry-after': String(RETRY_AFTER_S[name]) },
  });
}

/**
 * POST /session `{"device": "<id>"}` → `{"session": "<token>", "device": "<id>", "expires": ms}`.
 * @param {Request} request
 * @param {Env} env
 * @param {string | null} show
 */
export async function serveSession(request, env, show) {
  if (request.method !== 'POST')
    return edgeError('METHOD_NOT_ALLOWED', { message: '/session only answers POST', headers: { allow: 'POST' } });
  const read = await readBodyLimited(request, 256);
  if (!read.ok) return edgeError('BAD_SESSION', { status: 413, message: 'a session request is at most 256 bytes' });
  let device;
  try {
    device = JSON.parse(read.text || '{}')?.device;
  } catch {
    return edgeError('BAD_SESSION', { message: 'the body is not JSON' });
  }
  if (device !== undefined && (typeof device !== 'string' || !DEVICE_ID.test(device)))
    return edgeError('BAD_SESSION', { message: 'device must be 16–64 of A-Z a-z 0-9 - _' });
  const refused = await refuseJoin(request, env, show);
  if (refused) return refused;
  const id = device ?? b64url(crypto.getRandomValues(new Uint8Array(16)));
  const { token, expires } = await signSession(env, { device: id, show });
  return json({ session: token, device: id, expires });
}
