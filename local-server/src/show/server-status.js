// The show server's status (docs/reference/control-api.md#endpoints: GET /api/status): where the show is, the
// score, the clients, OSC, the edge, the audience cap, the voices and rehearsal mode, read when
// asked. Its transport fields are the ones the console's transport status shows
// (console/transport-status.js).

import { transportFields } from '../console/transport-status.js';

/**
 * The status getter (called on every GET /api/status, by the console's cards and the CLI).
 * @param {object} parts
 * @param {import('./show.js').Show} parts.show
 * @param {ReturnType<typeof import('../osc/osc.js').createOscOut>} parts.osc the OSC sender
 * @param {() => { port: number, host: string } | null} parts.oscIn the OSC-in listener once it listens
 * @param {{ status: () => any }} parts.edge the edge mirror
 * @param {{ status: () => any }} parts.votes
 * @param {{ status: () => any }} parts.reactions
 * @param {number | null} parts.maxClients
 * @param {{ status: () => any }} parts.notation the engraving's progress (docs/reference/notation.md#progress)
 */
export function createServerStatus({ show, osc, oscIn, edge, votes, reactions, maxClients, notation }) {
  return () => {
    const engine = show.engine.status();
    const score = show.engine.score();
    const listening = oscIn();
    return {
      ...transportFields(engine),
      countIn: engine.countIn,
      loop: engine.loop,
      epoch: show.stream.epoch(),
      seq: show.stream.seq(),
      clients: show.hub.counts(),
      score: { id: score.id, title: score.title, path: show.source().path, bars: score.bars },
      osc: { targets: osc.list(), in: listening ? listening.port : null, inHost: listening ? listening.host : null },
      edge: edge.status(),
      maxClients,
      vote: votes.status(),
      reaction: reactions.status(),
      rehearsal: show.rehearsal(),
      notation: notation.status(),
    };
  };
}
