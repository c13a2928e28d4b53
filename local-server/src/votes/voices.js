// Audience voices at the venue (docs/reference/audience-protocol.md#audience-voices): the vote desk and the reaction
// meter, wired to the musicians' OSC and to the edge mirror (the edge's vote totals and taps).

import { createVoteDesk } from './vote-desk.js';
import { createReactionMeter } from './reaction-meter.js';

/**
 * @param {object} options
 * @param {import('../show/show.js').Show} options.show
 * @param {() => number} options.now
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {import('../logs/log.js').Log} options.log
 * @param {{ message: (address: string, args: any[], kind: string) => void }} options.osc the one OSC sender
 * @param {ReturnType<typeof import('../edge/edge-mirror.js').createEdgeMirror>} options.edge
 * @param {number} [options.edgeWaitMs] how long a result waits for the edge's final count
 */
export function createVoices({ show, now, metrics, log, osc, edge, edgeWaitMs }) {
  const votes = createVoteDesk({
    show,
    now,
    metrics,
    log,
    sendOsc: (address, args) => osc.message(address, args, 'vote'),
    edgeOn: () => edge.status().enabled === true,
    edgeWaitMs,
  });
  const reactions = createReactionMeter({
    show,
    now,
    metrics,
    viewers: () => show.hub.viewers() + (edge.status().remoteViewers ?? 0),
    sendOsc: (address, args) => osc.message(address, args, 'reaction'),
  });
  const onVotes = (report) => votes.edgeTotals(report);
  const onTaps = (n) => reactions.tap(n, 'edge');
  edge.events.on('votes', onVotes);
  edge.events.on('taps', onTaps);
  return {
    votes,
    reactions,
    close() {
      edge.events.off('votes', onVotes);
      edge.events.off('taps', onTaps);
      votes.close();
      reactions.close();
    },
  };
}
