// The venue's vote desk (README.md, "Audience voices"): opens each of the score's prompts when
// its first beat is published, counts the venue's phones (one vote per device id), adds the
// edge's total, puts the tally into the state (`vote`) at most every TALLY_INTERVAL_MS, and when
// the prompt closes sends the result over OSC and, for a branch, makes the show jump to the
// winner's section at the next bar line. With an edge mirror, the result waits for the edge's
// final count (edge-worker/src/vote-seal.js), up to EDGE_WAIT_MS.

import { planPrompts, promptOn, roundKey } from '#core/votes/prompt-plan.js';
import { addCounts, createTally, winnerOf } from '#core/votes/tally.js';

/** The tally travels in the state at most this often (README.md: "a few times a second"). */
export const TALLY_INTERVAL_MS = 250;
/**
 * Votes that reach the server up to this long after the close (on the server clock) still count:
 * a phone taps just before the buttons go and its frame is on the way. Later ones are refused.
 */
export const CLOSE_DRAIN_MS = 300;
/**
 * With an edge mirror the result waits for the edge's final count, at most this long after the
 * close. The edge seals a prompt 3 s after the close (SEAL_AFTER_CLOSE_MS in edge-worker/src/votes.js:
 * under a storm a shard reads a frame late) and needs a moment more to add up its shards; a
 * loaded edge takes seconds more. Past this the result counts the edge's last running totals and
 * says so (`edge: "timeout"` in /api/status, a warning in the log): a dead venue link must not
 * hold the show's branch for ever.
 */
export const EDGE_WAIT_MS = 20_000;
/** The result stays in the state this long after the close (or until the next prompt opens). */
export const RESULT_HOLD_MS = 10_000;

/**
 * @typedef {import('#core/votes/prompt-plan.js').PlannedPrompt} PlannedPrompt
 * @typedef {'counted' | 'changed' | 'repeat' | 'closed' | 'unknown_option' | 'full'} VoteOutcome
 * @typedef {'final' | 'timeout' | 'off'} EdgeOutcome final: the edge's final count is in the result;
 *   timeout: it did not come within EDGE_WAIT_MS (its last running totals are); off: no edge mirror
 * @typedef {object} Round one opening of a prompt
 * @property {PlannedPrompt} prompt
 * @property {string} key
 * @property {number} opens server ms
 * @property {number} closes server ms
 * @property {ReturnType<typeof createTally>} venue
 * @property {number[] | null} edge the edge's last reported counts
 * @property {number} edgeTotal
 * @property {boolean} edgeFinal the edge's counts are its final count (vote-seal.js)
 * @property {EdgeOutcome | null} edgeOutcome how the result treated the edge (set on close)
 * @property {{ counts: number[], total: number, afterMs: number } | null} edgeLate the edge's final count, when it came after the result
 * @property {'open' | 'counting' | 'closed'} phase counting: votes refused, waiting for the edge's last totals
 * @property {number | null} winner
 * @property {{ bar: number, at: number } | null} branch where the show jumps (set on close)
 * @property {number | null} finalAt when the final tally was published (server ms)
 */

/**
 * @param {object} options
 * @param {ReturnType<typeof import('../show.js').createShow>} options.show
 * @param {() => number} options.now server clock (ms)
 * @param {import('../metrics.js').Metrics} options.metrics
 * @param {{ info: (msg: string) => void, warn?: (msg: string) => void }} options.log
 * @param {(address: string, args: Array<string | number | { type: string, value: number }>) => void} [options.sendOsc] to the musicians' OSC targets
 * @param {() => boolean} [options.edgeOn] whether an edge is counting too (the result waits for its final count)
 * @param {number} [options.edgeWaitMs] how long after the close the result waits for the edge's final count
 */
export function createVoteDesk({ show, now, metrics, log, sendOsc = () => {}, edgeOn = () => false, edgeWaitMs = EDGE_WAIT_MS }) {
  const engine = show.engine;
  let plan = planPrompts(engine.score(), engine.timeline());
  /** @type {Round | null} */
  let round = null;
  let lastBeat = -1;
  let dirty = false;
  let lastFlush = 0;
  /** @type {NodeJS.Timeout | null} */
  let flushTimer = null;
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  /** @type {Set<(round: Round) => void>} */
  const closeListeners = new Set();
  /** Votes that reached the desk (any outcome): the close's drain goes on while they come in (afterReceived). */
  let votesIn = 0;
  /** The close's drain of waiting votes ends after this many event-loop turns in a row without one. */
  const DRAIN_QUIET_HOPS = 4;

  const later = (fn, ms) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, Math.max(0, ms));
    timers.add(timer);
    return timer;
  };
  const cancelRoundTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };

  const countsOf = (r) => addCounts(r.venue.counts(), r.edge);

  /** The `vote` member of the state (README.md, "Audience voices"). */
  function voteState() {
    if (!round) return {};
    const counts = countsOf(round);
    const vote = {
      id: round.prompt.id,
      key: round.key,
      q: round.prompt.question,
      options: round.prompt.options,
      opens: Math.round(round.opens),
      closes: Math.round(round.closes),
      counts,
      total: round.venue.total() + round.edgeTotal,
    };
    if (round.phase === 'closed' && round.winner !== null) {
      Object.assign(vote, { closed: true, winner: round.prompt.options[round.winner].id });
      if (round.branch) Object.assign(vote, { branch: round.branch });
    }
    return { vote };
  }
  show.addStateExtra(voteState);
  // Every published state carries the current tally (each beat's too): once one went out, the
  // tally is no longer waiting, and no extra update is needed for it.
  const onEnvelope = () => {
    if (!dirty) return;
    dirty = false;
    setGauges();
  };
  show.events.on('envelope', onEnvelope);

  function setGauges() {
    if (!round) return;
    const venue = round.venue.counts();
    round.prompt.options.forEach((option, i) => {
      metrics.voteCount.set({ prompt: round.prompt.id, option: option.id, where: 'venue' }, venue[i]);
      metrics.voteCount.set({ prompt: round.prompt.id, option: option.id, where: 'edge' }, round.edge?.[i] ?? 0);
    });
  }

  function flush() {
    flushTimer = null;
    if (!dirty) return;
    dirty = false;
    lastFlush = now();
    setGauges();
    show.republish();
  }

  /** The tally changed: publish it now, or when TALLY_INTERVAL_MS has passed since the last time. */
  function markDirty() {
    dirty = true;
    if (flushTimer) return;
    const wait = lastFlush + TALLY_INTERVAL_MS - now();
    if (wait <= 0) flush();
    else flushTimer = setTimeout(flush, wait);
  }

  /** Forget the current round (seek out of it, pause, stop, new score, result shown long enough). */
  function drop() {
    cancelRoundTimers();
    if (!round) return;
    round = null;
    dirty = false;
  }

  /**
   * @param {PlannedPrompt} prompt
   * @param {number} opens server ms the opening beat sounds
   */
  function open(prompt, opens) {
    drop();
    const closes = engine.beatTime(prompt.close) ?? opens;
    round = {
      prompt, key: roundKey(prompt.id, opens), opens, closes, venue: createTally(prompt.options.length), edge: null, edgeTotal: 0,
      edgeFinal: false, edgeOutcome: null, edgeLate: null, phase: 'open', winner: null, branch: null, finalAt: null,
    };
    metrics.voteCount.reset();
    metrics.promptsOpened.inc();
    scheduleClose();
    log.info(`prompt ${prompt.id} open until ${new Date(closes).toISOString().slice(11, 23)} (${round.key})`);
  }

  function scheduleClose() {
    cancelRoundTimers();
    const r = /** @type {Round} */ (round);
    later(() => afterReceived(() => stopVotes(r)), r.closes + CLOSE_DRAIN_MS - now());
  }

  /**
   * Run `fn` once the votes the server has already received are counted. After a stall of the
   * event loop (a loaded machine: bench/votes saw seconds), the close timer fires before the
   * sockets' waiting frames are read; each setImmediate lets one more poll phase read them.
   * Votes waiting on new connections (POST /vote) come in one per hop: the server accepts one
   * waiting connection per loop iteration (libuv) and reads it in the next. So the hops go on
   * until DRAIN_QUIET_HOPS of them in a row bring in no vote (other requests may be waiting
   * between the votes), for at most CLOSE_DRAIN_MS.
   * @param {() => void} fn
   */
  function afterReceived(fn, quiet = DRAIN_QUIET_HOPS, until = now() + CLOSE_DRAIN_MS, seen = votesIn) {
    if (quiet === 0 || now() >= until) return fn();
    setImmediate(() => afterReceived(fn, votesIn === seen ? quiet - 1 : DRAIN_QUIET_HOPS, until, votesIn));
  }

  /** Votes stop; the result waits for the edge's final count (edgeTotals), if an edge is counting. */
  function stopVotes(r) {
    if (round !== r) return;
    r.phase = 'counting';
    if (!edgeOn()) close(r, 'off');
    else if (r.edgeFinal) close(r, 'final');
    // Even an edge without WebSocket viewers waits for: its SSE and polling viewers vote with POST
    // /vote, and the venue does not know how many there are.
    else later(() => close(r, 'timeout'), r.closes + edgeWaitMs - now());
  }

  /**
   * @param {Round} r
   * @param {EdgeOutcome} edgeOutcome
   */
  function close(r, edgeOutcome) {
    if (round !== r || r.phase === 'closed') return;
    r.phase = 'closed';
    r.edgeOutcome = edgeOutcome;
    metrics.voteResults.inc({ edge: edgeOutcome });
    if (edgeOutcome === 'timeout') log.warn?.(`prompt ${r.prompt.id}: the edge's final count did not come within ${Math.round(edgeWaitMs / 1000)} s of the close; the result counts its last running totals (${r.edgeTotal} votes)`);
    const counts = countsOf(r);
    r.winner = winnerOf(counts);
    const total = r.venue.total() + r.edgeTotal;
    const target = r.prompt.targets[r.winner];
    const end = r.prompt.targetEnds[r.winner];
    const barLine = engine.nextBarLine();
    // A show that has already reached the winner's section (it follows the prompt, and the result
    // took a while) carries on without starting it again.
    const arrived = barLine !== null && target !== null && end !== null && barLine >= target && barLine < end;
    if (target !== null && target !== undefined && !arrived) {
      const jump = engine.jumpAtNextBar(target);
      if (jump) r.branch = { bar: jump.bar, at: Math.round(jump.at) };
    }
    // One message per option, in the score's order (README.md, "OSC address space").
    r.prompt.options.forEach((option, i) => sendOsc('/tutti/vote', [r.prompt.id, option.id, counts[i], total]));
    const winner = r.prompt.options[r.winner].id;
    log.info(`prompt ${r.prompt.id} closed: ${winner} wins with ${counts[r.winner]} of ${total}${r.branch ? `; jumping at bar ${r.branch.bar}` : ''}${edgeOutcome === 'off' ? '' : ` (edge: ${edgeOutcome})`}`);
    dirty = true;
    if (flushTimer) clearTimeout(flushTimer);
    flush();
    r.finalAt = now();
    for (const listener of closeListeners) listener(r);
    later(() => {
      if (round !== r) return;
      drop();
      show.republish();
    }, RESULT_HOLD_MS);
  }

  /** Each published beat (one lookahead before it sounds): open, follow or drop the round. */
  function onBeat(beat) {
    const continuous = beat.index === lastBeat + 1;
    lastBeat = beat.index;
    if (round && round.phase === 'open') {
      // A seek (or a branch) breaks the run of beats: the prompt is abandoned, uncounted.
      if (!continuous) {
        drop();
        show.republish();
      } else {
        // A tempo change moves the close: follow it.
        const closes = engine.beatTime(round.prompt.close);
        if (closes !== null && Math.abs(closes - round.closes) > 1) {
          round.closes = closes;
          scheduleClose();
          markDirty();
        }
        return;
      }
    }
    const prompt = promptOn(plan, beat.index);
    if (prompt && (!round || round.prompt !== prompt || round.phase === 'closed')) {
      // A prompt opens on its first beat, or on the beat a seek lands on inside its window.
      if (beat.index === prompt.open || !continuous) open(prompt, beat.at);
    }
  }

  const onTransport = (transport) => {
    if (transport === 'playing') return;
    lastBeat = -1;
    if (round) {
      drop();
      // After the caller is done: a score load publishes its new snapshot (without the round)
      // first, and this finds nothing left to send; a pause or stop sends the state without it.
      queueMicrotask(() => show.republish());
    }
  };
  const onScore = () => {
    drop();
    plan = planPrompts(engine.score(), engine.timeline());
  };
  show.events.on('beat', onBeat);
  show.events.on('transport', onTransport);
  show.events.on('score', onScore);

  return {
    /**
     * Count one vote from a venue phone (WebSocket or POST /vote).
     * @param {import('#core/votes/vote-message.js').Vote} vote
     * @returns {VoteOutcome}
     */
    cast(vote) {
      votesIn += 1;
      const r = round;
      /** @type {VoteOutcome} */
      let outcome;
      // The phase, not the clock, decides: the close waits for the votes already received (afterReceived).
      if (!r || r.key !== vote.key || r.phase !== 'open') outcome = 'closed';
      else {
        const option = r.prompt.options.findIndex((o) => o.id === vote.option);
        outcome = option < 0 ? 'unknown_option' : r.venue.cast(vote.device, option);
      }
      metrics.votes.inc({ outcome });
      if (outcome === 'counted' || outcome === 'changed') markDirty();
      return outcome;
    },
    /**
     * The edge's totals for a round (README.md, "Audience voices"): counts per option, in the
     * score's order. Ignored once the result is final, so the published result stays the one
     * the branch was decided on.
     * @param {{ key: string, counts: number[], total: number, final?: boolean }} report final: the edge's sealed count (edge-worker/src/vote-seal.js)
     * @returns {boolean} whether it applied to the current round
     */
    edgeTotals(report) {
      const r = round;
      if (!r || r.key !== report?.key || !Array.isArray(report.counts)) return false;
      const counts = r.prompt.options.map((o, i) => {
        const n = Number(report.counts[i]);
        return Number.isSafeInteger(n) && n >= 0 ? n : 0;
      });
      const reported = Number(report.total);
      const total = Number.isSafeInteger(reported) && reported >= 0 ? reported : counts.reduce((a, b) => a + b, 0);
      const final = report.final === true;
      if (r.phase === 'closed') {
        // Too late for the result (EDGE_WAIT_MS passed): kept for /api/status and said in the log.
        if (final && r.edgeOutcome === 'timeout' && !r.edgeLate) {
          r.edgeLate = { counts, total, afterMs: Math.round(now() - (r.finalAt ?? now())) };
          log.warn?.(`prompt ${r.prompt.id}: the edge's final count (${total} votes) came ${r.edgeLate.afterMs} ms after the result, which counted ${r.edgeTotal} of them`);
        }
        return false;
      }
      r.edge = counts;
      r.edgeTotal = total;
      if (final) r.edgeFinal = true;
      if (final && r.phase === 'counting') close(r, 'final');
      else markDirty();
      return true;
    },
    /** The current round for the console and /api/status: key, phase, counts, winner. */
    status() {
      if (!round) return null;
      const counts = countsOf(round);
      return {
        id: round.prompt.id, key: round.key, phase: round.phase, opens: round.opens, closes: round.closes,
        options: round.prompt.options.map((o, i) => ({ ...o, count: counts[i], venue: round?.venue.counts()[i] ?? 0, edge: round?.edge?.[i] ?? 0 })),
        total: round.venue.total() + round.edgeTotal,
        winner: round.winner === null ? null : round.prompt.options[round.winner].id,
        branch: round.branch, finalAt: round.finalAt,
        edge: round.edgeOutcome ?? (round.edgeFinal ? 'final' : null), edgeLate: round.edgeLate,
      };
    },
    /** @param {(round: Round) => void} listener called once per round when its result is final */
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      drop();
      if (flushTimer) clearTimeout(flushTimer);
      show.events.off('beat', onBeat);
      show.events.off('transport', onTransport);
      show.events.off('score', onScore);
      show.events.off('envelope', onEnvelope);
    },
  };
}
