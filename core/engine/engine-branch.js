// The branch (docs/reference/score-format.md#prompts-and-branches) and a rehearsal loop's pass, as the engine
// takes them (core/engine/engine.js): at a bar line not yet published, another beat sounds in its
// place and the show goes on from there, as a seek landing on the bar line would.

/**
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createBranch(show) {
  const { at } = show;

  /** The first beat 1 at or after the next beat to publish, or null when the piece has none left. */
  function nextBarLine() {
    const { timeline } = show.loaded;
    for (let k = at.nextBeat; k < timeline.totalBeats; k += 1) if (timeline.positionOf(k).beat === 1) return k;
    return null;
  }

  return {
    nextBarLine,
    /**
     * A branch is due: beat `jump.to` sounds when beat `jump.from` would have, and the show goes on
     * from there, as a seek would (the view as playing up to it would show it). The beat shown
     * moves when it is published.
     */
    takeJump() {
      const { from, to } = /** @type {{ from: number, to: number }} */ (at.jump);
      at.showFrom(to);
      at.anchor = { index: to, time: show.clock.timeOfBeat(from) };
      at.nextBeat = to;
      show.clock.reanchor(to);
    },
    /**
     * At the first bar line not yet published, play beat `index` instead; only while playing and
     * no rehearsal loop is set (the loop wins, docs/how-to/rehearse.md#rehearsing).
     * @param {number} index
     * @returns {{ from: number, bar: number, at: number } | null}
     */
    jumpAtNextBar(index) {
      const { timeline } = show.loaded;
      if (
        show.rehearsal.loopPass() !== null ||
        !show.transport.playing() ||
        !Number.isInteger(index) ||
        index < 0 ||
        index >= timeline.totalBeats
      )
        return null;
      const from = nextBarLine();
      if (from === null) return null;
      at.jump = { from, to: index };
      return { from, bar: timeline.positionOf(from).bar, at: show.clock.timeOfBeat(from) };
    },
  };
}
