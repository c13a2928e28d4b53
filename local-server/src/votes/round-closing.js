// How the vote desk's current round ends (docs/reference/audience-protocol.md#audience-voices): the close waits for the
// votes already received (close-drain.js), then the round counts; with an edge mirror the result
// waits for the edge's final count, at most edgeWaitMs after the close; once decided it is
// announced (vote-result.js) and stays in the state for the hold. The round's rules are
// core/votes/vote-round.js; this file owns only the timers around them.

import { createCloseDrain, CLOSE_DRAIN_MS } from './close-drain.js';

/**
 * @typedef {import('#core/votes/vote-round.js').VoteRound} VoteRound
 * @typedef {import('#core/votes/vote-round.js').EdgeOutcome} EdgeOutcome
 * @typedef {import('./vote-view.js').RoundResult} RoundResult
 */

/**
 * @param {object} options
 * @param {() => number} options.now server clock (ms)
 * @param {() => boolean} options.edgeOn whether an edge is counting too
 * @param {number} options.edgeWaitMs how long after the close the result waits for the edge's final count
 * @param {number} options.holdMs how long the result stays in the state
 * @param {{ info: (msg: string) => void, warn?: (msg: string) => void }} options.log
 * @param {() => VoteRound | null} options.current the desk's current round
 * @param {() => RoundResult} options.result the current round's result record (branch, finalAt), filled in here
 * @param {(stage: 'held' | 'done') => void} options.settle the beat window's stage (core/votes/beat-window.js)
 * @param {(r: VoteRound, edgeOutcome: EdgeOutcome) => { bar: number, at: number } | null} options.announce
 * @param {{ now: () => void, changed: () => void }} options.tally the tally publisher
 * @param {() => void} options.expire the result has been shown long enough: drop the round
 */
export function createRoundClosing({ now, edgeOn, edgeWaitMs, holdMs, log, current, result, settle, announce, tally, expire }) {
  const timers = createRoundTimers();
  const drain = createCloseDrain(now);

  /** @param {VoteRound} r */
  function stopVotes(r) {
    if (current() !== r) return;
    settle('held');
    const step = r.stop({ edgeOn: edgeOn(), now: now() });
    if (step && 'closed' in step) decided(r, step.closed);
    else if (step)
      timers.later(
        () => {
          const timedOut = current() === r ? r.edgeTimedOut(now()) : null;
          if (timedOut) decided(r, timedOut.closed);
        },
        r.closes() + edgeWaitMs - now(),
      );
  }

  /**
   * The result is decided (vote-result.js); it stays in the state holdMs.
   * @param {VoteRound} r
   * @param {EdgeOutcome} edgeOutcome
   */
  function decided(r, edgeOutcome) {
    settle('done');
    result().branch = announce(r, edgeOutcome);
    tally.now();
    result().finalAt = now();
    timers.later(() => {
      if (current() === r) expire();
    }, holdMs);
  }

  return {
    /** (Re)schedule the close of the current round: at its close time, after the votes already in. */
    schedule() {
      timers.cancel();
      const r = /** @type {VoteRound} */ (current());
      // The phase, not the clock, decides: the close waits for the votes already received.
      timers.later(() => drain.afterReceived(() => stopVotes(r)), r.closes() + CLOSE_DRAIN_MS - now());
    },
    /** A vote reached the desk (any outcome): the close's drain goes on while they come in. */
    voteIn: () => drain.voteIn(),
    /**
     * The edge's totals for the current round: applied, and the result decided when they are the
     * final count it waited for; a final count after the result is only logged.
     * @param {{ key: string, counts: number[], total: number, final?: boolean }} report
     * @returns {boolean} whether it applied to the current round
     */
    edgeReport(report) {
      const r = current();
      if (!r) return false;
      const step = r.edgeReport(report, now());
      if (step.late)
        log.warn?.(
          `prompt ${r.prompt.id}: the edge's final count (${step.late.total} votes) came ${step.late.afterMs} ms after the result, which counted ${r.edgeTotal()} of them`,
        );
      if (step.closed) decided(r, step.closed);
      else if (step.applied) tally.changed();
      return step.applied;
    },
    /** Forget every timer of the round (it was dropped or replaced). */
    cancel: () => timers.cancel(),
  };
}

/** The desk's timers for the current round (its close, the edge's wait, the result's hold). */
function createRoundTimers() {
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  return {
    /**
     * @param {() => void} fn
     * @param {number} ms
     */
    later(fn, ms) {
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          fn();
        },
        Math.max(0, ms),
      );
      timers.add(timer);
    },
    cancel() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
