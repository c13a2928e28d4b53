// Which show a request is for (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): `/s/<show>/…` names a
// show, any other path is the default show with today's URLs. The name is hostile input: it
// becomes part of Durable Object names, so only a short, plain charset is accepted.

import { SHOW_NAME_RULE, isShowName } from '#core/protocol/show-name.js';

const PREFIX = '/s/';

/**
 * @typedef {{ kind: 'default', rest: string }
 *   | { kind: 'show', show: string, rest: string, base: string }
 *   | { kind: 'bad', message: string }} ShowPath
 *   rest: the path inside the show (`/ws`, `/media/a.png`, `` for `/s/<show>` itself);
 *   base: `/s/<show>` (what a redirect or an asset's URL must keep)
 */

/**
 * @param {string} pathname a request's URL path (percent-encoded, as URL.pathname gives it)
 * @returns {ShowPath}
 */
export function parseShowPath(pathname) {
  if (pathname !== '/s' && !pathname.startsWith(PREFIX)) return { kind: 'default', rest: pathname };
  const after = pathname.slice(PREFIX.length);
  const slash = after.indexOf('/');
  const show = slash === -1 ? after : after.slice(0, slash);
  if (!isShowName(show)) return { kind: 'bad', message: `a show is named in the path as /s/<show>/; ${SHOW_NAME_RULE}` };
  return { kind: 'show', show, rest: slash === -1 ? '' : after.slice(slash), base: `${PREFIX}${show}` };
}

/**
 * The same request with the show's prefix taken off its URL, for the objects and the static
 * assets, which know nothing of `/s/<show>` (the show travels as an argument instead).
 * @param {Request} request
 * @param {string} rest the path inside the show
 * @returns {Request}
 */
export function withPath(request, rest) {
  const url = new URL(request.url);
  url.pathname = rest || '/';
  return new Request(url, request);
}
