// The venue's vote desk (docs/reference/audience-protocol.md#audience-voices): opens each of the score's prompts when
// its first beat is published, counts the venue's phones (one vote per device id), adds the
// edge's total, puts the tally into the state (`vote`) at most every TALLY_INTERVAL_MS, and when
// the prompt closes sends the result over OSC and, for a branch, makes the show jump to the
// winner's section at the next bar line. With an edge mirror, the result waits for the edge's
// final count (edge-worker/src/votes/vote-seal.js), up to EDGE_WAIT_MS.
// The round's rules are core/votes/vote-round.js and its beats core/votes/beat-window.js; this
// file is the shell around them: the show's beats, the state stream, metrics, OSC, the log and the
// branch; how a round ends (its close, the edge's wait, the result's hold) is round-closing.js.

import { createBeatWindow } from '#core/votes/beat-window.js';
import { planPrompts, promptOn } from '#core/votes/prompt-plan.js';
import { changesTally } from '#core/votes/tally.js';
import { createVoteRound } from '#core/votes/vote-round.js';
import { createRoundClosing } from './round-closing.js';
import { createTallyPublisher } from './tally-publisher.js';
import { createResultAnnouncer } from './vote-result.js';
import { setVoteGauges, voteStateOf, voteStatusOf } from './vote-view.js';

/**
 * With an edge mirror the result waits for the edge's final count, at most this long after the
 * close. The edge seals a prompt 3 s after the close (SEAL_AFTER_CLOSE_MS in edge-worker/src/votes/votes.js:
 * under a storm a shard reads a frame late) and needs a moment more to add up its shards; a
 * loaded edge takes seconds more. Past this the result counts the edge's last running totals and
 * says so (`edge: "timeout"` in /api/status, a warning in the log): a dead venue link must not
 * hold the show's branch for ever.
 */
export const EDGE_WAIT_MS = 20_000;
/** The result stays in the state this long after the close (or until the next prompt opens). */
export const RESULT_HOLD_MS = 10_000;

/**
 * @typedef {import('#core/votes/vote-round.js').VoteOutcome} VoteOutcome
 * @typedef {import('#core/votes/vote-round.js').EdgeOutcome} EdgeOutcome
 * @typedef {import('#core/votes/vote-round.js').VoteRound} VoteRound
 * @typedef {import('./vote-view.js').RoundResult} RoundResult
 */

/**
 * @param {object} options
 * @param {ReturnType<typeof import('../show/show.js').createShow>} options.show
 * @param {() => number} options.now server clock (ms)
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ info: (msg: string) => void, warn?: (msg: string) => void }} options.log
 * @param {(address: string, args: Array<string | number | { type: string, value: number }>) => void} [options.sendOsc] to the musicians' OSC targets
 * @param {() => boolean} [options.edgeOn] whether an edge is counting too (the result waits for its final count)
 * @param {number} [options.edgeWaitMs] how long after the close the result waits for the edge's final count
 */
export function createVoteDesk({ show, now, metrics, log, sendOsc = () => {}, edgeOn = () => false, edgeWaitMs = EDGE_WAIT_MS }) {
  const engine = show.engine;
  let plan = planPrompts(engine.score(), engine.timeline());
  const beats = createBeatWindow({
    // Inside a rehearsal loop a prompt opens on the first pass only (docs/how-to/rehearse.md#rehearsing).
    windowAt: (index) => ((engine.loopPass() ?? 1) > 1 ? null : promptOn(plan, index)),
    beatTime: (index) => engine.beatTime(index),
    endsWithWindow: false,
  });
  /** @type {VoteRound | null} */
  let round = null;
  /** @type {RoundResult} */
  let result = { branch: null, finalAt: null };
  const tally = createTallyPublisher({ now, republish: () => show.republish(), onPublished: () => round && setVoteGauges(metrics, round) });
  const announce = createResultAnnouncer({ engine, metrics, log, sendOsc, edgeWaitMs });
  const expire = () => {
    drop();
    show.republish();
  };
  // The close, the count and the result's hold (round-closing.js) read and fill this desk's round.
  const desk = { current: () => round, result: () => result, settle: (stage) => beats.settle(stage), expire };
  const closing = createRoundClosing({ now, edgeOn, edgeWaitMs, holdMs: RESULT_HOLD_MS, log, announce, tally, ...desk });

  // A round that opens in rehearsal mode runs for the console only, to its result: phones never
  // see it, not even after rehearsal mode ends (docs/how-to/rehearse.md#rehearsal-mode).
  let forPhones = true;
  show.addStateExtra(() => (round && forPhones ? { vote: voteStateOf(round, result) } : {}));

  /** Forget the current round (seek out of it, pause, stop, new score, result shown long enough). */
  function drop() {
    closing.cancel();
    if (!round) return;
    round = null;
    tally.forget();
  }

  /** @param {NonNullable<ReturnType<typeof beats.current>>} opened */
  function open(opened) {
    closing.cancel();
    tally.forget();
    round = createVoteRound({ prompt: opened.window, opens: opened.opens, closes: opened.closes });
    forPhones = !show.rehearsal();
    result = { branch: null, finalAt: null };
    metrics.voteCount.reset();
    metrics.promptsOpened.inc();
    closing.schedule();
    log.info(`prompt ${round.prompt.id} open until ${new Date(round.closes()).toISOString().slice(11, 23)} (${round.key})`);
  }

  /** Each published beat (one lookahead before it sounds): open, follow or drop the round. */
  function onBeat(beat) {
    const step = beats.beat(beat);
    if (step.dropped && round) {
      // A seek (or a branch) broke the run of beats: the prompt is abandoned, uncounted.
      drop();
      show.republish();
    }
    const following = beats.current();
    if (step.moved && following && round?.moveClose(following.closes)) {
      // A tempo change moves the close: follow it.
      closing.schedule();
      tally.changed();
    }
    if (step.opened) open(step.opened);
  }

  const onTransport = (transport) => {
    if (transport === 'playing') return;
    beats.drop({ transport: true });
    if (round) {
      drop();
      // After the caller is done: a score load publishes its new snapshot (without the round)
      // first, and this finds nothing left to send; a pause or stop sends the state without it.
      queueMicrotask(() => show.republish());
    }
  };
  const onScore = () => {
    beats.drop({ transport: true });
    drop();
    plan = planPrompts(engine.score(), engine.timeline());
  };
  // Every published state carries the current tally (each beat's too): see tally-publisher.js.
  // An edit applied while playing: later prompts come from the edited score; a round open now carries on
  // (docs/reference/score-editing-api.md#apply-while-playing).
  const onEdited = () => {
    plan = planPrompts(engine.score(), engine.timeline());
  };
  const stopListening = show.listen({
    beat: onBeat,
    transport: onTransport,
    score: onScore,
    edited: onEdited,
    envelope: () => tally.sent(),
  });

  return {
    /**
     * Count one vote from a venue phone (WebSocket or POST /vote).
     * @param {import('#core/votes/vote-message.js').Vote} vote
     * @returns {VoteOutcome}
     */
    cast(vote) {
      closing.voteIn();
      // In rehearsal mode the round runs for the console, but phones do not vote (docs/how-to/rehearse.md#rehearsal-mode).
      const outcome = round && forPhones && !show.rehearsal() ? round.cast(vote) : 'closed';
      metrics.votes.inc({ outcome });
      if (changesTally(outcome)) tally.changed();
      return outcome;
    },
    /**
     * The edge's totals for a round (docs/reference/audience-protocol.md#audience-voices): counts per option, in the
     * score's order. Ignored once the result is final, so the published result stays the one
     * the branch was decided on.
     * @param {{ key: string, counts: number[], total: number, final?: boolean }} report final: the edge's sealed count (edge-worker/src/votes/vote-seal.js)
     * @returns {boolean} whether it applied to the current round
     */
    edgeTotals: (report) => closing.edgeReport(report),
    /** The current round for the console and /api/status: key, phase, counts, winner; `rehearsal` when phones never saw it. */
    status: () => (round ? { ...voteStatusOf(round, result), rehearsal: !forPhones } : null),
    /** The current round as the state's `vote` member, whether or not phones see it (the performance record). */
    voteState: () => (round ? { ...voteStateOf(round, result), ...(forPhones ? {} : { rehearsal: true }) } : null),
    close() {
      drop();
      tally.cancel();
      stopListening();
    },
  };
}
