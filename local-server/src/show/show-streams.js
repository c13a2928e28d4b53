// What a show publishes (docs/reference/audience-protocol.md#endpoints): the engine's state, with the parts kept
// outside the engine (the vote tally) merged in and, in rehearsal mode, what phones must not act
// on withheld, goes out on the full state stream and, derived from it in order, on the lean
// stream (`?stream=lean`: its own seq space and epoch id); the hub fans both out, each update
// encoded once for all its clients. On the lean stream an operator's action goes out in its own
// small update and the look-ahead it brings after it (leanSteps, core/stream/lean-state.js): a
// moment later, or with the next update if that comes first, so the action reaches every phone
// before the look-ahead's bytes compete with it (docs/reference/audience-protocol.md#the-action-first-the-look-ahead-after).

import { createStateStream } from '#core/stream/state-stream.js';
import {
  deriveLeanState,
  keepsBeat,
  leanSteps,
  LEAN_EPOCH_SUFFIX,
  LOOK_AHEAD_DELAY_MS,
  withoutLookAhead,
} from '#core/stream/lean-state.js';
import { rehearsalState } from '#core/stream/rehearsal-state.js';
import { createAheadStager } from '#core/stream/ahead-pieces.js';
import { createHub } from '../hub/hub.js';

/** How long an action's look-ahead waits on the lean stream (defined with the lean rule). */
export { LOOK_AHEAD_DELAY_MS };

/**
 * @param {object} options
 * @param {string} options.epoch the first epoch id
 * @param {() => number} options.now server clock (ms)
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {number} options.replayLimit
 * @param {object} options.hubOptions
 * @param {(json: string) => void} options.onEnvelope every envelope of the full stream published
 * @param {boolean} [options.aheadPieces] true: the full stream sends a chunk that starts later in pieces (core/stream/ahead-pieces.js)
 * @param {number} [options.lookAheadDelayMs] how long an action's look-ahead waits on the lean stream (LOOK_AHEAD_DELAY_MS)
 * @param {(fn: () => void, ms: number) => unknown} options.setTimer the show's timer (show.js: setTimeout, or the record benchmark's simulated clock)
 * @param {(handle: unknown) => void} options.clearTimer
 */
export function createShowStreams({
  epoch,
  now,
  metrics,
  replayLimit,
  hubOptions,
  onEnvelope,
  aheadPieces = false,
  lookAheadDelayMs = LOOK_AHEAD_DELAY_MS,
  setTimer,
  clearTimer,
}) {
  // Created with a placeholder state: the show resets both with the engine's first state. Envelope
  // `t` in whole ms (as in docs/README.md's envelope example; fewer bytes than a fractional reading).
  const stream = createStateStream({ epoch, state: {}, now: () => Math.round(now()), replayLimit });
  const leanStream = createStateStream({ epoch: `${epoch}${LEAN_EPOCH_SUFFIX}`, state: {}, now: () => Math.round(now()), replayLimit });
  /** @type {Record<string, unknown> | null} the lean state last derived (while a look-ahead waits: the one it will send) */
  let lean = null;
  /** @type {Record<string, unknown> | null} the full state last published */
  let lastFull = null;
  const hub = createHub({ stream, leanStream, metrics, now, ...hubOptions });
  // With aheadPieces the full stream gets a chunk that starts later in pieces, one per update, so
  // no beat's delta carries a whole chunk to every viewer (core/stream/ahead-pieces.js). The lean
  // stream is derived from the engine's state as it is: it changes once per window anyway. Off by
  // default: the edge derives its lean stream from the full one, where pieces mean ~6 small lean
  // updates per window instead of one (docs/explanation/clock-sync.md#the-flywheel).
  const stager = createAheadStager();
  /** Set while the last action's look-ahead (`lean`, below) is not yet on the lean stream: the timer that sends it. */
  let lookAheadTimer = /** @type {unknown} */ (null);
  /** @param {Record<string, unknown>} step one lean state: published and sent to every lean viewer */
  const publishLean = (step) => {
    const leanUpdate = leanStream.update(step);
    if (leanUpdate) hub.broadcast(leanUpdate.seq, leanUpdate.json, 'lean');
  };
  /** @returns {boolean} whether a look-ahead was waiting */
  const dropLookAhead = () => {
    if (lookAheadTimer === null) return false;
    clearTimer(lookAheadTimer);
    lookAheadTimer = null;
    return true;
  };
  const flushLookAhead = () => {
    if (dropLookAhead()) publishLean(/** @type {Record<string, unknown>} */ (lean));
  };

  /** @type {Array<() => Record<string, unknown>>} parts of the state kept outside the engine (the vote tally) */
  const extras = [];
  /** Rehearsal mode (docs/how-to/rehearse.md#rehearsal-mode): the phones show "the show starts soon". */
  let rehearsal = false;
  /** @param {Record<string, unknown>} state the engine's */
  const fullState = (state) => {
    const full = extras.length === 0 ? state : Object.assign({}, state, ...extras.map((extra) => extra()));
    return rehearsal ? rehearsalState(full) : full;
  };

  return {
    stream,
    leanStream,
    hub,
    /**
     * Publish the engine's state: a delta on each stream that changed, to every viewer.
     * @param {Record<string, unknown>} engineState
     */
    publish(engineState) {
      const state = fullState(engineState);
      const previous = lastFull;
      lastFull = state;
      const update = stream.update(aheadPieces ? stager.stage(state) : state);
      if (!update) return;
      hub.broadcast(update.seq, update.json);
      onEnvelope(update.json);
      if (lookAheadTimer !== null && previous !== null && keepsBeat(previous, state)) {
        // Same beat, same cues (a vote's tally, a vote dropped): the look-ahead keeps waiting, so
        // this goes out in the action's form and the look-ahead to come is this state's.
        publishLean(withoutLookAhead(state));
        lean = deriveLeanState(lean, state);
        return;
      }
      // A look-ahead still waiting goes out first: the lean stream stays in order, and the next
      // update is derived from the state every lean viewer then has.
      flushLookAhead();
      const steps = leanSteps(lean, state);
      publishLean(steps[0]);
      lean = steps[steps.length - 1];
      // Two steps: the action is on every socket; its look-ahead follows a moment later, so on the
      // phones (and the venue's air) the action does not share its moment with the chunks' bytes.
      if (steps.length > 1) lookAheadTimer = setTimer(flushLookAhead, lookAheadDelayMs);
    },
    /**
     * Start both streams in a new epoch with the engine's current state (nothing is sent).
     * @param {string} next the new epoch id
     * @param {Record<string, unknown>} engineState
     */
    reset(next, engineState) {
      // The new epoch's snapshot carries its own look-ahead.
      dropLookAhead();
      const state = fullState(engineState);
      stager.reset(state);
      stream.reset(next, state);
      lastFull = state;
      lean = deriveLeanState(null, state);
      leanStream.reset(`${next}${LEAN_EPOCH_SUFFIX}`, lean);
    },
    /** @param {() => Record<string, unknown>} extra keys added to every state published */
    addExtra(extra) {
      extras.push(extra);
    },
    /** Stop: the look-ahead waiting is dropped and every viewer closed (hub.close). */
    close() {
      dropLookAhead();
      hub.close();
    },
    /** Whether an action's look-ahead still waits for its timer (or the next update). */
    lookAheadWaiting: () => lookAheadTimer !== null,
    /** Whether rehearsal mode is on. */
    rehearsal: () => rehearsal,
    /**
     * Turn rehearsal mode on or off (the show publishes the state then).
     * @param {boolean} on
     * @returns {boolean} whether it changed
     */
    setRehearsal(on) {
      if (rehearsal === on) return false;
      rehearsal = on;
      return true;
    },
  };
}
