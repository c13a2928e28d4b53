// The query a viewer reads the state stream with (docs/reference/audience-protocol.md#endpoints): where it
// resumes (`since` or Last-Event-ID), how long a poll may wait, which epoch it holds and which
// stream it wants. One parser for the venue and the edge, so a bad value gets the same 400 from
// both (core/protocol/http-errors.js).

import { parseSeq } from '#core/protocol/sse.js';

/** A long poll waits at most this long, whatever `wait` asks for. */
export const MAX_POLL_WAIT_MS = 30_000;

/**
 * @typedef {{ since?: string | null, lastEventId?: string | null, wait?: string | null, epoch?: string | null, stream?: string | null }} RawStreamQuery
 *   absent values are undefined or null (URLSearchParams.get gives null, Fastify's query undefined)
 * @typedef {{ ok: boolean, code: 'BAD_SINCE' | 'BAD_WAIT' | 'BAD_STREAM' | null, since: number | null, wait: number, epoch: string | null, stream: 'full' | 'lean' }} StreamQuery
 *   ok false: `code` says what is wrong (core/protocol/http-errors.js) and the rest is not to be used
 */

/** @param {'BAD_SINCE' | 'BAD_WAIT' | 'BAD_STREAM'} code @returns {StreamQuery} */
const refused = (code) => ({ ok: false, code, since: null, wait: 0, epoch: null, stream: 'full' });

/**
 * Parse and check a viewer's stream query. Last-Event-ID wins over `since` (an EventSource
 * reconnecting sends the header and repeats the URL it first opened).
 * @param {RawStreamQuery} raw
 * @returns {StreamQuery}
 */
export function parseStreamQuery(raw) {
  const rawSince = raw.lastEventId ?? raw.since ?? null;
  const since = rawSince === null ? null : parseSeq(rawSince);
  if (rawSince !== null && since === null) return refused('BAD_SINCE');
  const rawWait = raw.wait ?? null;
  const wait = rawWait === null ? 0 : parseSeq(rawWait);
  if (wait === null) return refused('BAD_WAIT');
  const stream = raw.stream ?? null;
  if (stream !== null && stream !== 'full' && stream !== 'lean') return refused('BAD_STREAM');
  return {
    ok: true,
    code: null,
    since,
    wait: Math.min(wait, MAX_POLL_WAIT_MS),
    epoch: raw.epoch || null,
    stream: stream === 'lean' ? 'lean' : 'full',
  };
}

/**
 * Where a viewer resumes: its `since`, unless it holds another epoch (server restarted, new
 * score), in which case it needs the snapshot whatever its seq.
 * @param {StreamQuery} query
 * @param {string | null} currentEpoch
 * @returns {number | null} null = start with the snapshot
 */
export function resumePoint(query, currentEpoch) {
  return query.epoch !== null && currentEpoch !== null && query.epoch !== currentEpoch ? null : query.since;
}
