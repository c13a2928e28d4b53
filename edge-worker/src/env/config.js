// Numeric settings come from wrangler `vars` (strings); a bad or missing value falls back to
// the default instead of breaking the show.

import { MAX_SNAPSHOT_BYTES } from '#core/protocol/envelope.js';
import { LOOK_AHEAD_DELAY_MS } from '#core/stream/lean-state.js';

const DEFAULTS = Object.freeze({
  SHARD_CAPACITY: 5000,
  SHARD_COUNT: 32,
  REPLAY_LIMIT: 512,
  FEED_TTL_MS: 200,
  SSE_MAX_MS: 10 * 60_000,
  MEDIA_MAX_FILE_BYTES: 25 * 1024 * 1024,
  MEDIA_MAX_TOTAL_BYTES: 100 * 1024 * 1024,
  VENUE_LOST_MS: 5000,
  VENUE_EXPIRE_MS: 6 * 3600_000,
  ADDRESS_MAX_SOCKETS: 16,
  ADDRESS_MAX_STREAMS: 8,
  LOOK_AHEAD_DELAY_MS,
});

/**
 * Largest publisher frame the root accepts (bytes of UTF-8): the snapshot limit every valid score
 * stays within (MAX_SNAPSHOT_BYTES in core/protocol/envelope.js), so the edge never refuses a
 * frame of a score `tutti validate` passed.
 */
export const MAX_PUBLISH_FRAME_BYTES = MAX_SNAPSHOT_BYTES;

/** The show every route serves (one show per deployment). */
export const SHOW_NAME = 'main';

/**
 * @param {Env | Record<string, unknown>} env
 * @param {keyof typeof DEFAULTS} name
 * @param {number} min
 * @param {number} max
 */
function intVar(env, name, min, max) {
  const n = Number(/** @type {Record<string, unknown>} */ (env)?.[name]);
  return Number.isInteger(n) && n >= min && n <= max ? n : DEFAULTS[name];
}

/**
 * @param {Env | Record<string, unknown>} env the Worker/DO env (vars as wrangler.jsonc declares them, or overridden as strings)
 */
export function readConfig(env) {
  return {
    shardCapacity: intVar(env, 'SHARD_CAPACITY', 1, 32_768),
    shardCount: intVar(env, 'SHARD_COUNT', 1, 1024),
    replayLimit: intVar(env, 'REPLAY_LIMIT', 1, 4096),
    feedTtlMs: intVar(env, 'FEED_TTL_MS', 10, 5000),
    sseMaxMs: intVar(env, 'SSE_MAX_MS', 1000, 3_600_000),
    // Score media stored by the root (SQLite): per file and per show. 1 GiB / 5 GiB at most (a
    // Durable Object holds 10 GB).
    mediaFileBytes: intVar(env, 'MEDIA_MAX_FILE_BYTES', 1, 1024 ** 3),
    mediaTotalBytes: intVar(env, 'MEDIA_MAX_TOTAL_BYTES', 1, 5 * 1024 ** 3),
    // A publisher not heard from for this long is lost (docs/reference/publisher-protocol.md#venue-status).
    venueLostMs: intVar(env, 'VENUE_LOST_MS', 1000, 600_000),
    // A show lost for this long is over: viewers see "not started" instead of its last bar.
    venueExpireMs: intVar(env, 'VENUE_EXPIRE_MS', 1000, 30 * 24 * 3600_000),
    // Per public address (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects; address-caps.js): WebSocket viewers on
    // one shard (never more than half of it), and open SSE/long-poll requests per isolate.
    addressMaxSockets: intVar(env, 'ADDRESS_MAX_SOCKETS', 1, 32_768),
    addressMaxStreams: intVar(env, 'ADDRESS_MAX_STREAMS', 1, 100_000),
    // How long an operator's action's look-ahead waits on the lean stream (lean-feed.js); 0: the next timer tick.
    lookAheadDelayMs: intVar(env, 'LOOK_AHEAD_DELAY_MS', 0, 5000),
  };
}
