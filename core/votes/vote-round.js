// One opening of a prompt at the venue (docs/reference/audience-protocol.md#audience-voices), as a pure state machine:
// open (votes counted) → counting (votes refused, the result waits for the edge's final count)
// → closed (the winner is decided). Events go in (a vote, the close, the edge's totals, the wait
// running out); the round's state and what the caller must do come out. Timers, the state
// stream, OSC, metrics and the branch jump are the caller's (local-server/src/votes/vote-desk.js).

import { addCounts, createTally, winnerOf } from './tally.js';
import { roundKey } from './prompt-plan.js';

/**
 * @typedef {import('./prompt-plan.js').PlannedPrompt} PlannedPrompt
 * @typedef {'counted' | 'changed' | 'repeat' | 'closed' | 'unknown_option' | 'full'} VoteOutcome
 * @typedef {'final' | 'timeout' | 'off'} EdgeOutcome final: the edge's final count is in the
 *   result; timeout: it did not come in time (its last running totals are); off: no edge counts
 * @typedef {'open' | 'counting' | 'closed'} RoundPhase
 * @typedef {{ counts: number[], total: number, afterMs: number }} LateCount the edge's final count, come after the result
 * @typedef {{ key: string, counts: number[], total: number, final?: boolean }} EdgeReport
 */

/**
 * The outcome of one vote against a prompt: the rule the venue and each edge owner apply.
 * @param {{ accepting: boolean, optionIds: ReadonlyArray<string>, tally: ReturnType<typeof createTally> }} ballot
 * @param {{ option: string, device: string }} vote
 * @returns {VoteOutcome}
 */
export function judgeVote({ accepting, optionIds, tally }, vote) {
  if (!accepting) return 'closed';
  const option = optionIds.indexOf(vote.option);
  return option < 0 ? 'unknown_option' : tally.cast(vote.device, option);
}

/**
 * An edge report's counts, made safe: one non-negative whole number per option.
 * @param {EdgeReport} report
 * @param {number} options
 */
function cleanReport(report, options) {
  const counts = Array.from({ length: options }, (_, i) => {
    const n = Number(report.counts[i]);
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  });
  const reported = Number(report.total);
  const total = Number.isSafeInteger(reported) && reported >= 0 ? reported : counts.reduce((a, b) => a + b, 0);
  return { counts, total, final: report.final === true };
}

/**
 * @param {object} options
 * @param {PlannedPrompt} options.prompt
 * @param {number} options.opens server ms its first beat sounds
 * @param {number} options.closes server ms its close sounds
 */
export function createVoteRound({ prompt, opens, closes }) {
  const key = roundKey(prompt.id, opens);
  const optionIds = prompt.options.map((o) => o.id);
  const venue = createTally(prompt.options.length);
  /** @type {RoundPhase} */
  let phase = 'open';
  /** @type {number[] | null} the edge's last reported counts */
  let edge = null;
  let edgeTotal = 0;
  let edgeFinal = false;
  /** @type {EdgeOutcome | null} */
  let edgeOutcome = null;
  /** @type {LateCount | null} */
  let edgeLate = null;
  /** @type {number | null} */
  let winner = null;
  /** @type {number | null} */
  let closedAt = null;

  const counts = () => addCounts(venue.counts(), edge);
  const total = () => venue.total() + edgeTotal;

  /**
   * Decide the result.
   * @param {EdgeOutcome} outcome
   * @param {number} now
   */
  function close(outcome, now) {
    phase = 'closed';
    edgeOutcome = outcome;
    winner = winnerOf(counts());
    closedAt = now;
    return { closed: outcome };
  }

  return {
    prompt,
    key,
    opens,
    /** When votes stop, on the server clock (a tempo change moves it: moveClose). */
    closes: () => closes,
    phase: () => phase,
    counts,
    total,
    venueCounts: () => venue.counts(),
    venueTotal: () => venue.total(),
    edgeCounts: () => edge,
    edgeTotal: () => edgeTotal,
    /** How the result treated the edge, once closed; 'final' while counting if the final count is in. */
    edgeOutcome: () => edgeOutcome ?? (edgeFinal ? 'final' : null),
    edgeLate: () => edgeLate,
    /** The winning option's index, once closed. */
    winner: () => winner,

    /**
     * A vote from a venue phone: only an open round for its key counts it.
     * @param {import('./vote-message.js').Vote} vote
     * @returns {VoteOutcome}
     */
    cast(vote) {
      return judgeVote({ accepting: phase === 'open' && vote.key === key, optionIds, tally: venue }, vote);
    },

    /**
     * A tempo change moved the close beat's time.
     * @param {number} at server ms
     * @returns {boolean} whether it moved (the caller re-arms its close timer)
     */
    moveClose(at) {
      if (phase !== 'open' || Math.abs(at - closes) <= 1) return false;
      closes = at;
      return true;
    },

    /**
     * Votes stop (the close, after the caller drained the votes already received).
     * @param {{ edgeOn: boolean, now: number }} at edgeOn: an edge mirror counts votes too
     * @returns {{ closed: EdgeOutcome } | { waitEdge: true } | null} decided now, or wait for the
     *   edge's final count; null: votes had stopped already
     */
    stop({ edgeOn, now }) {
      if (phase !== 'open') return null;
      phase = 'counting';
      if (!edgeOn) return close('off', now);
      if (edgeFinal) return close('final', now);
      // Even an edge without WebSocket viewers is waited for: its SSE and polling viewers vote
      // with POST /vote, and the venue does not know how many there are.
      return { waitEdge: true };
    },

    /**
     * The edge's final count did not come in time: decide on its last running totals.
     * @param {number} now
     * @returns {{ closed: EdgeOutcome } | null}
     */
    edgeTimedOut(now) {
      return phase === 'counting' ? close('timeout', now) : null;
    },

    /**
     * The edge's totals for this round (running, or its final count).
     * @param {EdgeReport} report
     * @param {number} now
     * @returns {{ applied: boolean, closed?: EdgeOutcome, late?: LateCount }} applied: the
     *   tally changed (publish it); closed: the result is decided; late: a final count that came
     *   after a result that timed out (kept beside it, never added)
     */
    edgeReport(report, now) {
      if (report?.key !== key || !Array.isArray(report.counts)) return { applied: false };
      const clean = cleanReport(report, optionIds.length);
      if (phase === 'closed') {
        if (!clean.final || edgeOutcome !== 'timeout' || edgeLate) return { applied: false };
        edgeLate = { counts: clean.counts, total: clean.total, afterMs: Math.round(now - (closedAt ?? now)) };
        return { applied: false, late: edgeLate };
      }
      edge = clean.counts;
      edgeTotal = clean.total;
      if (clean.final) edgeFinal = true;
      if (clean.final && phase === 'counting') return { applied: true, ...close('final', now) };
      return { applied: true };
    },
  };
}

/** @typedef {ReturnType<typeof createVoteRound>} VoteRound */
