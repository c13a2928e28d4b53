// The envelope every transport carries (docs/reference/audience-protocol.md#endpoints) and the few frames a
// viewer may send.

import { parseVote } from '#core/votes/vote-message.js';

export const PROTOCOL_VERSION = 1;

/**
 * Largest client frame a viewer may send; bigger ones close with 1009 (docs/reference/audience-protocol.md#endpoints
 * `GET /ws`).
 */
export const MAX_CLIENT_FRAME_BYTES = 4096;

/**
 * Largest snapshot (the whole audience state in one envelope, UTF-8 bytes as sent) a score may
 * produce at any point. `tutti validate` and every score load replay the score and refuse one
 * that would exceed it (core/score/validate-state-size.js); the edge's publisher frame limit is
 * this same number (edge-worker/src/env/config.js), and the venue's uplink sends a snapshot instead
 * of any delta that would be larger, so every frame the venue publishes fits. docs/README.md
 * ("Audience endpoints") and docs/reference/score-format.md document it.
 */
export const MAX_SNAPSHOT_BYTES = 256 * 1024;

/** Most taps one tap frame may report (a phone reports 4 times a second; 10 taps in 250 ms is already frantic). */
export const MAX_TAPS_PER_FRAME = 10;

/** WebSocket close codes used by Tutti. */
export const CloseCode = Object.freeze({
  NORMAL: 1000,
  GOING_AWAY: 1001,
  POLICY_VIOLATION: 1008,
  MESSAGE_TOO_BIG: 1009,
  TRY_AGAIN_LATER: 1013,
});

/**
 * @typedef {'snapshot' | 'delta'} EnvelopeType
 * @typedef {{ v: number, type: EnvelopeType, epoch: string, seq: number, t: number, data: unknown }} Envelope
 */

/**
 * Build an envelope object (docs/reference/audience-protocol.md#endpoints).
 * @param {EnvelopeType} type
 * @param {string} epoch
 * @param {number} seq
 * @param {number} t server wall-clock ms at creation
 * @param {unknown} data whole state (snapshot) or merge patch (delta)
 * @returns {Envelope}
 */
export function createEnvelope(type, epoch, seq, t, data) {
  return { v: PROTOCOL_VERSION, type, epoch, seq, t, data };
}

/**
 * Check that an unknown value is a well-formed envelope; returns a reason when it is not.
 * Used by clients, the edge worker (publisher frames) and tests.
 * @param {unknown} value
 * @returns {string | null} null when valid, else what is wrong
 */
export function envelopeProblem(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'envelope must be a JSON object';
  const e = /** @type {Record<string, unknown>} */ (value);
  if (e.v !== PROTOCOL_VERSION) return `v must be ${PROTOCOL_VERSION}`;
  if (e.type !== 'snapshot' && e.type !== 'delta') return 'type must be "snapshot" or "delta"';
  if (typeof e.epoch !== 'string' || e.epoch.length === 0 || e.epoch.length > 64)
    return 'epoch must be a non-empty string of at most 64 characters';
  if (!Number.isSafeInteger(e.seq) || /** @type {number} */ (e.seq) < 0) return 'seq must be a non-negative integer';
  if (typeof e.t !== 'number' || !Number.isFinite(e.t)) return 't must be a finite number';
  if (!('data' in e)) return 'data is missing';
  if (e.type === 'snapshot' && (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)))
    return 'snapshot data must be an object';
  return null;
}

/**
 * @typedef {{ type: 'ping', id: number, c: number } | { type: 'resync' }
 *   | { type: 'vote', vote: import('../votes/vote-message.js').Vote } | { type: 'tap', n: number }} ClientFrame
 * @typedef {{ ok: true, frame: ClientFrame } | { ok: false, reason: string, vote?: true }} ParsedClientFrame vote: a malformed vote
 */

/**
 * Parse a frame a viewer sent. Never throws.
 * @param {string} text
 * @returns {ParsedClientFrame}
 */
export function parseClientFrame(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'frame is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'frame must be a JSON object' };
  if (value.type === 'resync') return { ok: true, frame: { type: 'resync' } };
  if (value.type === 'ping') {
    if (!Number.isFinite(value.id) || !Number.isFinite(value.c)) return { ok: false, reason: 'ping needs numeric id and c' };
    return { ok: true, frame: { type: 'ping', id: value.id, c: value.c } };
  }
  // Taps counted by the phone since its last report (docs/reference/audience-protocol.md#audience-voices: reactions).
  if (value.type === 'tap') {
    if (!Number.isInteger(value.n) || value.n < 1 || value.n > MAX_TAPS_PER_FRAME)
      return { ok: false, reason: `tap needs n, a whole number from 1 to ${MAX_TAPS_PER_FRAME}` };
    return { ok: true, frame: { type: 'tap', n: value.n } };
  }
  if (value.type === 'vote') {
    const parsed = parseVote(value);
    return parsed.ok
      ? { ok: true, frame: { type: 'vote', vote: parsed.vote } }
      : { ok: false, reason: /** @type {{ reason: string }} */ (parsed).reason, vote: true };
  }
  return { ok: false, reason: 'unknown frame type' };
}

/**
 * The answer to a clock-sync ping (not part of the state stream: no seq).
 * @param {number} id
 * @param {number} clientMs
 * @param {number} serverMs
 * @returns {string}
 */
export function encodePong(id, clientMs, serverMs) {
  return `{"type":"pong","id":${id},"c":${clientMs},"s":${serverMs}}`;
}
