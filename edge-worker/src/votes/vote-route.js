// POST /vote on the edge: a vote from an SSE or polling viewer (docs/reference/audience-protocol.md#audience-voices),
// checked here and counted by the shard that owns its device id (votes.js).

import { encodeVoteReply, parseVote } from '#core/votes/vote-message.js';
import { isAccepted } from '#core/votes/tally.js';
import { edgeError } from '../http/http.js';
import { readBodyLimited } from '../http/body-limit.js';
import { RETRY_AFTER_S, withinLimit } from '../guards/rate-limits.js';
import { shardStub } from '../env/stubs.js';
import { classifyClient } from '../guards/venue-address.js';
import { SESSION_HEADER, verifySession } from '../guards/viewer-session.js';
import { ownerOf } from './votes.js';

const MAX_BODY_BYTES = 1024;
const REFUSED_STATUS = { closed: 409, unknown_option: 409, unavailable: 503 };

/**
 * @param {Request} request
 * @param {Env} env
 * @param {{ shardCount: number }} config
 * @param {string | null} [show] the checked show name (show-path.js), null for the default show
 * @param {(kind: import('../guards/refusal-counter.js').RequestRefusalKind) => void} [onMalformed] told of
 *   every malformed request, which is answered here and never reaches an object (refusal-counter.js)
 */
export async function serveVote(request, env, { shardCount }, show = null, onMalformed = () => {}) {
  /**
   * @param {import('../guards/refusal-counter.js').RequestRefusalKind} kind
   * @param {Response} response
   */
  const refuse = (kind, response) => {
    onMalformed(kind);
    return response;
  };
  if (request.method !== 'POST')
    return refuse('vote_method', edgeError('METHOD_NOT_ALLOWED', { message: '/vote only answers POST', headers: { allow: 'POST' } }));
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return refuse('vote_type', edgeError('BAD_VOTE', { status: 415, message: 'send the vote as application/json' }));
  }
  // Refused before it is read (body-limit.js): a 100 MiB body costs the isolate nothing.
  const read = await readBodyLimited(request, MAX_BODY_BYTES);
  if (!read.ok) return refuse('vote_size', edgeError('BAD_VOTE', { status: 413, message: `a vote is at most ${MAX_BODY_BYTES} bytes` }));
  const { text } = read;
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('vote_body', edgeError('BAD_VOTE', { message: 'the body is not JSON' }));
  }
  const parsed = parseVote(body);
  if (parsed.ok === false)
    return refuse('vote_body', edgeError('BAD_VOTE', { message: /** @type {{ reason: string }} */ (parsed).reason }));
  const { vote } = parsed;
  const refused = await refuseVoter(request, env, show, vote.device);
  if (refused) return refused;
  const owner = ownerOf(vote.device, shardCount);
  let outcome;
  try {
    [outcome] = await shardStub(env, owner, show).recordVotes([{ vote, at: Date.now() }]);
  } catch {
    outcome = 'unavailable';
  }
  const counted = isAccepted(outcome);
  return new Response(encodeVoteReply(vote.key, counted ? null : outcome), {
    status: counted ? 200 : (REFUSED_STATUS[outcome] ?? 409),
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * One device, one voice (viewer-session.js): the vote must carry a session the Worker signed for
 * this device id, and stay within the per-session and per-address vote limits (the venue's
 * address and loopback have no per-address limit; their sessions are limited all the same).
 * @param {Request} request
 * @param {Env} env
 * @param {string | null} show
 * @param {string} device
 * @returns {Promise<Response | null>} the refusal, or null
 */
async function refuseVoter(request, env, show, device) {
  const session = await verifySession(env, request.headers.get(SESSION_HEADER), show);
  if (!session.ok) return edgeError('SESSION', { message: /** @type {{ reason: string }} */ (session).reason });
  if (session.device !== device) return edgeError('SESSION', { message: 'the session is for another device id' });
  const limited = (/** @type {import('../guards/rate-limits.js').LimiterName} */ name) =>
    edgeError('TOO_MANY_VOTES', { headers: { 'retry-after': String(RETRY_AFTER_S[name]) } });
  if (!(await withinLimit(env, 'VOTE_SESSION_LIMITER', `${show ?? ''}|${device}`))) return limited('VOTE_SESSION_LIMITER');
  const client = await classifyClient(request, env, show);
  if (client.kind === 'public' && !(await withinLimit(env, 'VOTE_ADDRESS_LIMITER', `${show ?? ''}|${client.address}`)))
    return limited('VOTE_ADDRESS_LIMITER');
  return null;
}
