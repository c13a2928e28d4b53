// The venue's one public address (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): overflow viewers sent from
// the hall all share it, so it gets a much higher join limit and no per-address caps. The root
// sees it on the publisher's connection; each isolate asks the root at most every TTL_MS.

import { clientAddress, isLoopback } from '../http/client-address.js';
import { rootStub } from '../env/stubs.js';

const TTL_MS = 5000;
const MAX_SHOWS = 64;
/** @type {Map<string, { address: string, at: number, pending: Promise<string> | null }>} show key → cached answer */
const cache = new Map();

/**
 * @param {Env} env
 * @param {string | null} show
 * @returns {Promise<string>} the address the publisher last connected from, '' if none yet
 */
export async function venueAddress(env, show) {
  const key = show ?? '';
  const now = Date.now();
  let entry = cache.get(key);
  if (entry && now - entry.at < TTL_MS) return entry.address;
  if (entry?.pending) return entry.pending;
  if (!entry) {
    if (cache.size >= MAX_SHOWS) cache.delete(cache.keys().next().value);
    entry = { address: '', at: 0, pending: null };
    cache.set(key, entry);
  }
  const held = entry;
  held.pending = (async () => {
    try {
      const address = await rootStub(env, show).publisherAddress();
      held.address = typeof address === 'string' ? address : '';
    } catch {
      // keep the last known answer
    }
    held.at = Date.now();
    held.pending = null;
    return held.address;
  })();
  return held.pending;
}

/**
 * How per-address limits treat a client: `loopback` (local dev: none), `venue` (the venue's own
 * address: higher join limit, no per-address caps) or `public`.
 * @param {Request} request
 * @param {Env} env
 * @param {string | null} show
 * @returns {Promise<{ address: string, kind: 'loopback' | 'venue' | 'public' }>}
 */
export async function classifyClient(request, env, show) {
  const address = clientAddress(request);
  if (isLoopback(address)) return { address, kind: 'loopback' };
  return { address, kind: (await venueAddress(env, show)) === address ? 'venue' : 'public' };
}
