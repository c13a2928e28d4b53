// What the performance record writes of the audience's votes (docs/how-to/record-and-replay.md#the-performance-record)
// : one `vote` entry per closed round, with the desk's counts (the venue's and the
// edge's) when the desk still holds that round, and one `act` entry (by the vote) when its
// winner sent the show to another bar.

/**
 * @param {object} options
 * @param {import('../show/show.js').Show} options.show
 * @param {{ status: () => any, voteState?: () => any }} options.votes the vote desk
 * @param {(entry: Record<string, unknown>) => void} options.write
 * @returns {() => void} look at the current round (after each envelope) and write what is new
 */
export function createVoteEntries({ show, votes, write }) {
  let lastVoteKey = null;
  let lastBranchKey = null;
  return function followVotes() {
    // The desk's round even when phones do not see it (rehearsal mode, docs/README.md).
    const vote = votes.voteState?.() ?? /** @type {any} */ (show.stream.state()).vote;
    if (!vote?.closed) return;
    if (vote.key !== lastVoteKey) {
      lastVoteKey = vote.key;
      const status = votes.status();
      write({
        k: 'vote',
        id: vote.id,
        key: vote.key,
        q: vote.q,
        options: status?.key === vote.key ? status.options : vote.options.map((o, i) => ({ ...o, count: vote.counts[i] })),
        total: vote.total,
        winner: vote.winner,
        branch: vote.branch ?? null,
        edge: status?.key === vote.key ? status.edge : null,
        ...(vote.rehearsal ? { rehearsal: true } : {}),
      });
    }
    if (vote.branch && vote.key !== lastBranchKey) {
      lastBranchKey = vote.key;
      write({
        k: 'act',
        by: 'vote',
        kind: 'branch',
        what: `branch at bar ${vote.branch.bar}: ${vote.winner} won "${vote.id}"`,
        at: vote.branch.at,
      });
    }
  };
}
