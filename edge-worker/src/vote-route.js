// POST /vote on the edge: a vote from an SSE or polling viewer (README.md, "Audience voices"),
// checked here and counted by the shard that owns its device id (votes.js).

import { encodeVoteReply, parseVote } from '#core/votes/vote-message.js';
import { jsonError } from './http.js';
import { shardStub } from './stubs.js';
import { ownerOf } from './votes.js';

const MAX_BODY_BYTES = 1024;
const REFUSED_STATUS = { closed: 409, unknown_option: 409, unavailable: 503 };

/**
 * @param {Request} request
 * @param {Env} env
 * @param {{ shardCount: number }} config
 * @param {string | null} [show] the checked show name (show-path.js), null for the default show
 * @param {(kind: import('./refusal-counter.js').RequestRefusalKind) => void} [onMalformed] told of
 *   every malformed request, which is answered here and never reaches an object (refusal-counter.js)
 */
export async function serveVote(request, env, { shardCount }, show = null, onMalformed = () => {}) {
  /**
   * @param {import('./refusal-counter.js').RequestRefusalKind} kind
   * @param {Response} response
   */
  const refuse = (kind, response) => {
    onMalformed(kind);
    return response;
  };
  if (request.method !== 'POST') return refuse('vote_method', jsonError(405, 'METHOD_NOT_ALLOWED', '/vote only answers POST', { allow: 'POST' }));
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return refuse('vote_type', jsonError(415, 'BAD_VOTE', 'send the vote as application/json'));
  }
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return refuse('vote_size', jsonError(413, 'BAD_VOTE', `a vote is at most ${MAX_BODY_BYTES} bytes`));
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('vote_body', jsonError(400, 'BAD_VOTE', 'the body is not JSON'));
  }
  const parsed = parseVote(body);
  if (parsed.ok === false) return refuse('vote_body', jsonError(400, 'BAD_VOTE', /** @type {{ reason: string }} */ (parsed).reason));
  const { vote } = parsed;
  const owner = ownerOf(vote.device, shardCount);
  let outcome;
  try {
    [outcome] = await shardStub(env, owner, show).recordVotes(owner, [{ vote, at: Date.now() }], show);
  } catch {
    outcome = 'unavailable';
  }
  const counted = outcome === 'counted' || outcome === 'changed' || outcome === 'repeat';
  return new Response(encodeVoteReply(vote.key, counted ? null : outcome), {
    status: counted ? 200 : (REFUSED_STATUS[outcome] ?? 409),
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
