// The close of a vote waits for the votes the server has already received (docs/reference/audience-protocol.md#audience-voices)
// . After a stall of the event loop (a loaded machine: bench/votes saw seconds) the close
// timer fires before the sockets' waiting frames are read; each setImmediate lets one more poll
// phase read them. Votes waiting on new connections (POST /vote) come in one per hop: the server
// accepts one waiting connection per loop iteration (libuv) and reads it in the next. So the hops
// go on until QUIET_HOPS of them in a row bring in no vote (other requests may be waiting between
// the votes), for at most CLOSE_DRAIN_MS.

/**
 * Votes that reach the server up to this long after the close (on the server clock) still count:
 * a phone taps just before the buttons go and its frame is on the way. Later ones are refused.
 */
export const CLOSE_DRAIN_MS = 300;
/** The drain ends after this many event-loop turns in a row without a vote. */
const QUIET_HOPS = 4;

/** @param {() => number} now server clock */
export function createCloseDrain(now) {
  /** Votes that reached the desk (any outcome): the drain goes on while they come in. */
  let votesIn = 0;

  /**
   * @param {() => void} fn
   * @param {number} quiet
   * @param {number} until
   * @param {number} seen
   */
  function hop(fn, quiet, until, seen) {
    if (quiet === 0 || now() >= until) return fn();
    setImmediate(() => hop(fn, votesIn === seen ? quiet - 1 : QUIET_HOPS, until, votesIn));
  }

  return {
    /** A vote reached the server (counted or not). */
    voteIn() {
      votesIn += 1;
    },
    /**
     * Run `fn` once the votes already received are counted.
     * @param {() => void} fn
     */
    afterReceived(fn) {
      hop(fn, QUIET_HOPS, now() + CLOSE_DRAIN_MS, votesIn);
    },
  };
}
