// The single writer of the audience state: numbers every change (seq), serializes each change
// once (the bytes every client gets), keeps a replay window and a cached snapshot.

import { createEnvelope } from '#core/protocol/envelope.js';
import { createMergePatch, applyMergePatch, withoutNulls } from '#core/protocol/merge-patch.js';
import { createReplayBuffer } from './replay-buffer.js';

/**
 * @typedef {object} StreamUpdate
 * @property {number} seq
 * @property {string} json the delta envelope, serialized once for every client
 * @property {number} t
 *
 * @typedef {object} StateStream
 * @property {(next: Record<string, unknown>) => StreamUpdate | null} update publish a new state; null when nothing changed
 * @property {(epoch: string, state: Record<string, unknown>, seq?: number) => void} reset start a new epoch at seq 0 (or `seq`) with this state
 * @property {() => { seq: number, json: string }} snapshot the current snapshot envelope (cached per seq)
 * @property {(seq: number) => string[] | null} deltasSince serialized deltas after seq; [] when current; null when a snapshot is needed
 * @property {() => Record<string, unknown>} state
 * @property {() => number} seq
 * @property {() => string} epoch
 * @property {() => { seq: number, json: string }[]} window the kept deltas, oldest first (to store them)
 */

/**
 * @param {object} options
 * @param {string} options.epoch
 * @param {Record<string, unknown>} options.state the initial state (seq 0)
 * @param {() => number} options.now wall-clock ms, stamped as `t`
 * @param {number} [options.replayLimit] deltas kept for resume (default 512)
 * @param {number} [options.seq] the seq `state` has (default 0); with `replay`, a stream restored from storage
 * @param {{ seq: number, json: string }[]} [options.replay] the deltas that led to it, oldest first
 * @returns {StateStream}
 */
export function createStateStream({ epoch, state, now, replayLimit = 512, seq: startSeq = 0, replay: kept = [] }) {
  let currentEpoch = epoch;
  let current = /** @type {Record<string, unknown>} */ (withoutNulls(state));
  let seq = startSeq;
  const replay = createReplayBuffer(replayLimit);
  for (const entry of kept) replay.push(entry);
  /** @type {{ seq: number, json: string } | null} */
  let cachedSnapshot = null;

  return {
    update(next) {
      const clean = /** @type {Record<string, unknown>} */ (withoutNulls(next));
      const patch = createMergePatch(current, clean);
      if (patch === undefined) return null;
      seq += 1;
      current = clean;
      const t = now();
      const json = JSON.stringify(createEnvelope('delta', currentEpoch, seq, t, patch));
      replay.push({ seq, json });
      return { seq, json, t };
    },
    reset(epochId, state, startAt = 0) {
      currentEpoch = epochId;
      current = /** @type {Record<string, unknown>} */ (withoutNulls(state));
      seq = startAt;
      replay.clear();
      cachedSnapshot = null;
    },
    snapshot() {
      if (!cachedSnapshot || cachedSnapshot.seq !== seq) {
        cachedSnapshot = { seq, json: JSON.stringify(createEnvelope('snapshot', currentEpoch, seq, now(), current)) };
      }
      return cachedSnapshot;
    },
    deltasSince(since) {
      if (since === seq) return [];
      const entries = replay.since(since);
      return entries ? entries.map((e) => e.json) : null;
    },
    state: () => current,
    seq: () => seq,
    epoch: () => currentEpoch,
    window: () => replay.entries(),
  };
}

/**
 * Apply an envelope to a client-side copy of the state: what every viewer does.
 * @param {Record<string, unknown> | null} state
 * @param {{ type: string, data: unknown }} envelope
 * @returns {Record<string, unknown>}
 */
export function applyEnvelope(state, envelope) {
  if (envelope.type === 'snapshot') return /** @type {Record<string, unknown>} */ (envelope.data);
  return /** @type {Record<string, unknown>} */ (applyMergePatch(state ?? {}, envelope.data));
}
