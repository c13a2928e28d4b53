// What the performance record writes of the show itself (docs/how-to/record-and-replay.md#the-performance-record):
// every envelope of the full state stream as it was sent (and, from them, the vote results),
// each transport and tempo action with who made it, and each score load.

import { onAction } from '../logs/transport-log.js';
import { createVoteEntries } from './vote-entries.js';

/**
 * Follow the show and write its entries until the returned function is called.
 * @param {object} options
 * @param {import('../show/show.js').Show} options.show
 * @param {{ status: () => any, voteState?: () => any }} options.votes the vote desk
 * @param {(entry: Record<string, unknown>) => void} options.write an entry, stamped with the server clock
 * @param {(line: string) => void} options.appendLine a line as it is (an envelope, already JSON)
 * @param {() => { id: string, title: string, path: string }} options.score the score now loaded
 * @returns {() => void} stop following
 */
export function recordShowEntries({ show, votes, write, appendLine, score }) {
  const followVotes = createVoteEntries({ show, votes, write });
  const stopListening = show.listen({
    envelope(/** @type {string} */ json) {
      appendLine(`{"k":"env","e":${json}}`);
      followVotes();
    },
    score: () => write({ k: 'score', score: score(), epoch: show.stream.epoch() }),
  });
  const stopActions = onAction(show.engine, (action) => write({ k: 'act', ...action }));
  return () => {
    stopListening();
    stopActions();
  };
}
