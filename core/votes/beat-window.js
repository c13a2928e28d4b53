// The life of a score window that beats open and close (a vote's prompt, a reaction window), as
// the engine publishes beats (docs/reference/audience-protocol.md#audience-voices). One rule for both: a window opens on
// its first beat, or on the beat a seek lands on inside it; while it follows the beats, a break in
// their run (a seek, a branch) drops it and a tempo change moves its close; a pause, stop or new
// score drops it (reset). Pure and runtime-free: the venue's vote desk and reaction meter use it.

/**
 * @typedef {{ open: number, close: number }} BeatSpan a window in beat indexes, close exclusive
 * @typedef {'following' | 'held' | 'done'} WindowStage following: tracks the beats (open for
 *   votes or taps); held: stays although the beats moved on (a vote being counted), and the same
 *   window does not open again; done: stays until dropped, and the same window may open again
 */

/**
 * @template {BeatSpan} W
 * @typedef {{ window: W, opens: number, closes: number, stage: WindowStage }} OpenWindow
 */

/**
 * @template {BeatSpan} W
 * @typedef {{ dropped: boolean, opened: OpenWindow<W> | null, moved: boolean }} BeatStep what one
 *   beat did: dropped the window that was following the beats (a seek, or the beats left it),
 *   opened one (replacing any held or done window), moved the open one's close
 */

/**
 * @template {BeatSpan} W
 * @param {object} options
 * @param {(index: number) => W | null | undefined} options.windowAt the plan's window on a beat
 * @param {(index: number) => number | null} options.beatTime when a beat sounds (server ms), null past the end
 * @param {boolean} options.endsWithWindow whether leaving the window's beats drops it (reactions)
 *   or it outlives them and its owner ends it on the clock (a vote closes by timer, then counts)
 */
export function createBeatWindow({ windowAt, beatTime, endsWithWindow }) {
  let lastBeat = -1;
  /** @type {OpenWindow<W> | null} */
  let current = null;

  /**
   * One published beat.
   * @param {{ index: number, at: number }} beat
   * @returns {BeatStep<W>}
   */
  function beat({ index, at }) {
    const continuous = index === lastBeat + 1;
    lastBeat = index;
    const here = windowAt(index) ?? null;
    const step = { dropped: false, opened: null, moved: false };
    if (current && current.stage === 'following') {
      if (continuous && !(endsWithWindow && current.window !== here)) {
        const closes = beatTime(current.window.close);
        if (closes !== null && Math.abs(closes - current.closes) > 1) {
          current.closes = closes;
          step.moved = true;
        }
        return step;
      }
      current = null;
      step.dropped = true;
    }
    const replaces = !current || current.window !== here || current.stage === 'done';
    if (here && replaces && (index === here.open || !continuous)) {
      // A held or done window the new one replaces is the owner's to end (its open handler).
      current = { window: here, opens: at, closes: beatTime(here.close) ?? at, stage: 'following' };
      step.opened = current;
    }
    return step;
  }

  return {
    beat,
    /** The window open now, if any. */
    current: () => current,
    /**
     * The owner moves the open window on: it stops following the beats.
     * @param {'held' | 'done'} stage
     */
    settle(stage) {
      if (current) current.stage = stage;
    },
    /**
     * Forget the window (the owner ended it, or the transport stopped).
     * @param {{ transport?: boolean }} [why] transport: playing stopped, so the next beat starts a new run
     * @returns {boolean} whether one was open
     */
    drop({ transport = false } = {}) {
      if (transport) lastBeat = -1;
      const had = current !== null;
      current = null;
      return had;
    },
  };
}
