// Counting one opening of a prompt: one vote per device id, the latest choice wins (a changed
// vote moves from one option to the other, a repeated one changes nothing). Pure and
// runtime-free: the venue counts its phones with it and each edge shard its own.

/**
 * @typedef {'counted' | 'changed' | 'repeat' | 'full'} CastOutcome
 * @typedef {ReturnType<typeof createTally>} Tally
 */

/**
 * @param {number} options how many options the prompt has
 * @param {number} [maxVoters] distinct devices counted at most (memory bound; beyond: 'full')
 */
export function createTally(options, maxVoters = 200_000) {
  /** @type {Map<string, number>} device → option index */
  const choices = new Map();
  const counts = new Array(options).fill(0);
  return {
    /**
     * @param {string} device
     * @param {number} option index into the prompt's options
     * @returns {CastOutcome}
     */
    cast(device, option) {
      const before = choices.get(device);
      if (before === option) return 'repeat';
      if (before === undefined && choices.size >= maxVoters) return 'full';
      choices.set(device, option);
      counts[option] += 1;
      if (before === undefined) return 'counted';
      counts[before] -= 1;
      return 'changed';
    },
    /** Votes per option, in the score's order (a copy). */
    counts: () => counts.slice(),
    /** Devices counted. */
    total: () => choices.size,
  };
}

/**
 * The winning option: the most votes; a tie goes to the option written first.
 * @param {ReadonlyArray<number>} counts
 * @returns {number} its index
 */
export function winnerOf(counts) {
  let best = 0;
  for (let i = 1; i < counts.length; i += 1) if (counts[i] > counts[best]) best = i;
  return best;
}

/**
 * Add two lists of counts option by option (venue + edge); a missing list counts as zeros.
 * @param {ReadonlyArray<number>} a
 * @param {ReadonlyArray<number> | null} b
 * @returns {number[]}
 */
export function addCounts(a, b) {
  return a.map((n, i) => n + (b?.[i] ?? 0));
}

/**
 * Whether a vote's outcome means the phone's choice stands (the phone is told "counted"): a new
 * vote, a changed one, or the same choice again. The venue and the edge answer phones by it.
 * @param {string} outcome
 */
export function isAccepted(outcome) {
  return outcome === 'counted' || outcome === 'changed' || outcome === 'repeat';
}

/**
 * Whether a vote's outcome changed the counts (so the tally must be published or stored again).
 * @param {string} outcome
 */
export function changesTally(outcome) {
  return outcome === 'counted' || outcome === 'changed';
}
