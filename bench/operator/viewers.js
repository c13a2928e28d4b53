// Benchmark worker for `npm run bench:operator`: up to a few thousand phones in one process, each
// doing with every envelope what the audience app does — parse it, check its seq, apply it to its
// own copy of the state (applyEnvelope: the snapshot replaces it, a delta is merged in), and ask for
// a resync after a gap. When the runner arms an action ("pause", "seek to bar 40", …), each phone
// notes the wall-clock time at which its state first shows it (transport paused, the segment at
// the new bar, the new bpm, the prompt's vote). Only connects to the URL it is given (127.0.0.1).
//
// With `record`, the process's first phone keeps every envelope it handled, so the replay baseline
// (replay-server.js) can send the very same bytes.
//
// Commands: connect → arm → wait (repeated) → recording, counts.

import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { serveParent } from '../lib/child-ipc.js';
import { actionShown } from './actions.js';
import { createEnvelopeCache } from './envelope-cache.js';
import { shareInflations } from './shared-inflate.js';

/** Wall clock with sub-millisecond resolution, the same in every process on this machine. */
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CONNECT_TIMEOUT_MS = 20_000;

/**
 * @typedef {object} Phone
 * @property {WebSocket} ws
 * @property {Record<string, unknown> | null} state
 * @property {string} epoch
 * @property {number} seq
 * @property {boolean} open
 * @property {number | null} appliedAt when its state first showed the armed action
 * @property {number} arrivedAt when the message being handled arrived (before parsing it)
 * @property {number | null} arrivedAtApplied when the message that showed the action arrived
 */

/** @type {Phone[]} */
const phones = [];
const counts = { gaps: 0, resyncs: 0, malformed: 0, closed: 0, failed: 0, envelopes: 0 };
/** @type {{ action: string, value?: number } | null} */
let armed = null;
let pending = 0;
/** How envelopes are parsed and applied (envelope-cache.js); set by connect. */
let envelopes = createEnvelopeCache('shared');
/** Whether phones share inflations of the same compressed bytes (shared-inflate.js); set by connect. */
let sharedInflation = true;
let inflateConcurrency = 10;
/** Whether phones offer permessage-deflate (as browsers do); set by connect (--deflate). */
let offerDeflate = true;
/** The recording phone's envelopes (texts) and, per armed action, the index of the one that showed it. */
const recording = { on: false, texts: /** @type {string[]} */ ([]), applied: /** @type {number[]} */ ([]), arms: 0 };
/** @type {(() => void) | null} */
let allApplied = null;

/** Note the moment a phone's state first shows the armed action. */
function check(phone) {
  if (!armed || phone.appliedAt !== null || !phone.state || !actionShown(armed, phone.state)) return;
  phone.appliedAt = clock();
  phone.arrivedAtApplied = phone.arrivedAt;
  if (recording.on && phone === phones[0]) recording.applied[recording.arms - 1] = recording.texts.length - 1;
  pending -= 1;
  if (pending === 0) allApplied?.();
}

/** One envelope, as the app handles it (web/audience/src/connection.js): seq check, then apply. */
function onEnvelope(phone, bytes) {
  let entry;
  try {
    entry = envelopes.read(bytes);
  } catch {
    counts.malformed += 1;
    return;
  }
  const { envelope } = entry;
  if (envelope.type !== 'snapshot' && envelope.type !== 'delta') return; // pong, vote reply, notice
  counts.envelopes += 1;
  if (envelope.type === 'delta' && (envelope.epoch !== phone.epoch || envelope.seq !== phone.seq + 1)) {
    // A gap or another epoch: the app asks for a fresh snapshot and ignores the delta.
    counts.gaps += 1;
    counts.resyncs += 1;
    phone.ws.send('{"type":"resync"}');
    return;
  }
  if (recording.on && phone === phones[0]) recording.texts.push(bytes.toString());
  phone.state = envelopes.apply(phone.state, entry);
  phone.epoch = envelope.epoch;
  phone.seq = envelope.seq;
  check(phone);
}

/** Open one phone's WebSocket; resolves true once it is open, false when it failed. */
function openPhone(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, {
      handshakeTimeout: CONNECT_TIMEOUT_MS,
      // ws's client offers permessage-deflate (the lean stream accepts it); its inflations share
      // one limiter per process (concurrencyLimit), which a phone with its own CPU does not have.
      perMessageDeflate: offerDeflate && { concurrencyLimit: inflateConcurrency },
    });
    /** @type {Phone} */
    const phone = { ws, state: null, epoch: '', seq: -1, open: false, appliedAt: null, arrivedAt: 0, arrivedAtApplied: null };
    ws.on('open', () => {
      if (sharedInflation) shareInflations(ws);
      phone.open = true;
      phones.push(phone);
      resolve(true);
    });
    ws.on('message', (data, isBinary) => {
      phone.arrivedAt = clock();
      if (!isBinary) onEnvelope(phone, /** @type {Buffer} */ (data));
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      if (phone.open) counts.closed += 1;
      else counts.failed += 1;
      phone.open = false;
      resolve(false);
    });
  });
}

serveParent({
  /** Open `count` phones, `batch` at a time; resolves when each has its first state. */
  async connect({ url, count, batch, record = false, apply = 'shared', inflate = 10, deflate = 'offer' }) {
    recording.on = record;
    inflateConcurrency = inflate;
    offerDeflate = deflate === 'offer';
    envelopes = createEnvelopeCache(apply);
    sharedInflation = apply === 'shared';
    for (let i = 0; i < count; i += batch) {
      const n = Math.min(batch, count - i);
      await Promise.all(Array.from({ length: n }, () => openPhone(url)));
    }
    // Every phone has its snapshot before the first action.
    for (let i = 0; i < 200 && phones.some((p) => p.open && p.state === null); i += 1) await sleep(50);
    return { connected: phones.filter((p) => p.open && p.state !== null).length, failed: counts.failed };
  },
  /** Watch for an action; phones whose state already shows it would make the figure meaningless. */
  arm(spec) {
    armed = spec;
    recording.arms += 1;
    let already = 0;
    pending = 0;
    for (const phone of phones) {
      phone.appliedAt = null;
      phone.arrivedAtApplied = null;
      if (!phone.open) continue;
      if (phone.state && actionShown(spec, phone.state)) {
        already += 1;
        phone.appliedAt = -1;
      } else pending += 1;
    }
    return { already, watching: pending };
  },
  /** Resolves when every open phone has applied the armed action, or after timeoutMs. */
  async wait({ timeoutMs }) {
    if (pending > 0) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        allApplied = () => {
          clearTimeout(timer);
          resolve(undefined);
        };
      });
      allApplied = null;
    }
    const appliedAt = [];
    const arrivedAt = [];
    let missing = 0;
    for (const phone of phones) {
      if (phone.appliedAt !== null && phone.appliedAt >= 0) {
        appliedAt.push(phone.appliedAt);
        arrivedAt.push(/** @type {number} */ (phone.arrivedAtApplied));
      } else if (phone.appliedAt === null && phone.open) missing += 1;
    }
    armed = null;
    return { appliedAt, arrivedAt, missing };
  },
  counts: () => ({ ...counts, open: phones.filter((p) => p.open).length }),
  /** What the recording phone received: its join snapshot, then per action the envelopes before it and the one that showed it. */
  recording() {
    const { texts, applied } = recording;
    if (texts.length === 0 || applied.length !== recording.arms || applied.some((i) => i === undefined))
      throw new Error('the recording phone did not apply every action');
    const steps = applied.map((index, k) => ({ before: texts.slice(k === 0 ? 1 : applied[k - 1] + 1, index), action: texts[index] }));
    return { snapshot: texts[0], steps };
  },
});
