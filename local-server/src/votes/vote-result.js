// What the venue does when a vote's result is decided (docs/reference/audience-protocol.md#audience-voices): the branch
// to the winner's section at the next bar line, one OSC message per option, the log and the metric.

/**
 * @typedef {import('#core/votes/vote-round.js').VoteRound} VoteRound
 * @typedef {import('#core/votes/vote-round.js').EdgeOutcome} EdgeOutcome
 */

/**
 * @param {object} options
 * @param {{ nextBarLine: () => number | null, jumpAtNextBar: (index: number) => { bar: number, at: number } | null, loopPass?: () => number | null }} options.engine the show's engine
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ info: (msg: string) => void, warn?: (msg: string) => void }} options.log
 * @param {(address: string, args: Array<string | number>) => void} options.sendOsc
 * @param {number} options.edgeWaitMs how long the result waited for the edge (for the log)
 */
export function createResultAnnouncer({ engine, metrics, log, sendOsc, edgeWaitMs }) {
  /**
   * Jump to the winner's section at the next bar line, unless the show is already in it (it
   * follows the prompt, and the result took a while): then it carries on without starting again.
   * @param {VoteRound['prompt']} prompt
   * @param {number} winner
   * @returns {{ bar: number, at: number } | null}
   */
  function branchTo(prompt, winner) {
    const target = prompt.targets[winner];
    const end = prompt.targetEnds[winner];
    const barLine = engine.nextBarLine();
    const arrived = barLine !== null && target !== null && end !== null && barLine >= target && barLine < end;
    if (target === null || target === undefined || arrived) return null;
    const jump = engine.jumpAtNextBar(target);
    return jump ? { bar: jump.bar, at: Math.round(jump.at) } : null;
  }

  /**
   * @param {VoteRound} r a closed round
   * @param {EdgeOutcome} edgeOutcome
   * @returns {{ bar: number, at: number } | null} where the show jumps
   */
  return function announce(r, edgeOutcome) {
    metrics.voteResults.inc({ edge: edgeOutcome });
    if (edgeOutcome === 'timeout')
      log.warn?.(
        `prompt ${r.prompt.id}: the edge's final count did not come within ${Math.round(edgeWaitMs / 1000)} s of the close; the result counts its last running totals (${r.edgeTotal()} votes)`,
      );
    const counts = r.counts();
    const total = r.total();
    const winner = /** @type {number} */ (r.winner());
    const branch = branchTo(r.prompt, winner);
    // One message per option, in the score's order (docs/reference/osc.md#address-space).
    r.prompt.options.forEach((option, i) => sendOsc('/tutti/vote', [r.prompt.id, option.id, counts[i], total]));
    log.info(
      `prompt ${r.prompt.id} closed: ${r.prompt.options[winner].id} wins with ${counts[winner]} of ${total}${branch ? `; jumping at bar ${branch.bar}` : engine.loopPass?.() ? '; no jump: a rehearsal loop is set' : ''}${edgeOutcome === 'off' ? '' : ` (edge: ${edgeOutcome})`}`,
    );
    return branch;
  };
}
