// Which state stream a shard's viewer reads (docs/reference/audience-protocol.md#endpoints): the full one or the lean one
// (lean-feed.js). The Worker has already refused any other value (core/stream/query.js); the
// choice rides on the socket as a tag, so a shard woken from hibernation still knows it.

/** @typedef {'full' | 'lean'} StreamName */

/** @type {Record<StreamName, string>} */
export const STREAM_TAGS = { full: 'stream:full', lean: 'stream:lean' };

/**
 * @param {Request} request the viewer's upgrade, as the Worker forwarded it
 * @returns {StreamName}
 */
export function streamOfRequest(request) {
  return new URL(request.url).searchParams.get('stream') === 'lean' ? 'lean' : 'full';
}

/**
 * @param {string[]} tags a viewer socket's tags
 * @returns {StreamName}
 */
export function streamOfTags(tags) {
  return tags.includes(STREAM_TAGS.lean) ? 'lean' : 'full';
}
