// How a vote round is shown: the `vote` member of the state (docs/reference/audience-protocol.md#audience-voices), the
// round for the console and /api/status, and the vote gauges.

/**
 * @typedef {import('#core/votes/vote-round.js').VoteRound} VoteRound
 * @typedef {{ branch: { bar: number, at: number } | null, finalAt: number | null }} RoundResult
 *   where the show jumps (set on close) and when the final tally was published (server ms)
 */

/**
 * The `vote` member of the state.
 * @param {VoteRound} round
 * @param {RoundResult} result
 */
export function voteStateOf(round, result) {
  const vote = {
    id: round.prompt.id,
    key: round.key,
    q: round.prompt.question,
    options: round.prompt.options,
    opens: Math.round(round.opens),
    closes: Math.round(round.closes()),
    counts: round.counts(),
    total: round.total(),
  };
  const winner = round.winner();
  if (round.phase() === 'closed' && winner !== null) {
    Object.assign(vote, { closed: true, winner: round.prompt.options[winner].id });
    if (result.branch) Object.assign(vote, { branch: result.branch });
  }
  return vote;
}

/**
 * The round for the console and /api/status: key, phase, counts (venue and edge), winner.
 * @param {VoteRound} round
 * @param {RoundResult} result
 */
export function voteStatusOf(round, result) {
  const counts = round.counts();
  const venue = round.venueCounts();
  const edge = round.edgeCounts();
  const winner = round.winner();
  return {
    id: round.prompt.id,
    key: round.key,
    phase: round.phase(),
    opens: round.opens,
    closes: round.closes(),
    options: round.prompt.options.map((o, i) => ({ ...o, count: counts[i], venue: venue[i] ?? 0, edge: edge?.[i] ?? 0 })),
    total: round.total(),
    winner: winner === null ? null : round.prompt.options[winner].id,
    branch: result.branch,
    finalAt: result.finalAt,
    edge: round.edgeOutcome(),
    edgeLate: round.edgeLate(),
  };
}

/**
 * The per-option vote gauges (tutti_vote_count{prompt,option,where}) follow the published tally.
 * @param {import('../logs/metrics.js').Metrics} metrics
 * @param {VoteRound} round
 */
export function setVoteGauges(metrics, round) {
  const venue = round.venueCounts();
  const edge = round.edgeCounts();
  round.prompt.options.forEach((option, i) => {
    metrics.voteCount.set({ prompt: round.prompt.id, option: option.id, where: 'venue' }, venue[i]);
    metrics.voteCount.set({ prompt: round.prompt.id, option: option.id, where: 'edge' }, edge?.[i] ?? 0);
  });
}
