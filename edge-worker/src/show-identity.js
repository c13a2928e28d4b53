// How the objects of a named show know which show they belong to (README.md, "More than one show
// per edge"): a Durable Object is not told the name it was created with, so the Worker says it in
// a header on every request it forwards, RPCs carry it as an argument, and a shard's viewer
// sockets carry it as a tag (after hibernation the object has forgotten everything else).
// No header and no tag mean the default show.

import { isShowName } from '#core/protocol/show-name.js';

/** Set by the Worker only: any copy a client sent is replaced or removed (stampShow). */
export const SHOW_HEADER = 'x-tutti-show';
const TAG_PREFIX = 'show=';

/**
 * A checked show name, or null for the default show (RPC arguments are checked with this).
 * @param {unknown} value
 * @returns {value is string | null}
 */
export function isShowKey(value) {
  return value === null || isShowName(value);
}

/**
 * The request the Worker forwards to an object of `show`: the header set to the checked name,
 * or removed for the default show, so a client can never choose it.
 * @param {Request} request
 * @param {string | null} show
 * @returns {Request}
 */
export function stampShow(request, show) {
  const headers = new Headers(request.headers);
  if (show === null) headers.delete(SHOW_HEADER);
  else headers.set(SHOW_HEADER, show);
  return new Request(request, { headers });
}

/**
 * @param {Request} request a request forwarded by the Worker
 * @returns {string | null}
 */
export function showFromRequest(request) {
  const value = request.headers.get(SHOW_HEADER);
  return isShowName(value) ? value : null;
}

/**
 * @param {string | null} show
 * @returns {string[]} the tags that mark a socket as belonging to `show` (none for the default)
 */
export function showTags(show) {
  return show === null ? [] : [`${TAG_PREFIX}${show}`];
}

/**
 * @param {string[]} tags a socket's tags
 * @returns {string | null}
 */
export function showFromTags(tags) {
  const tag = tags.find((t) => t.startsWith(TAG_PREFIX));
  const show = tag ? tag.slice(TAG_PREFIX.length) : null;
  return isShowName(show) ? show : null;
}
