// The page's own clock: monotonic (performance.now) but on the epoch scale, so it can be compared
// with the server's wall-clock stamps. Date.now() is not used: it jumps when the phone's clock is
// corrected, which would move every beat on screen.

/** @returns {number} ms since the Unix epoch, sub-millisecond, never jumps backwards */
export const pageNow = () => performance.timeOrigin + performance.now();
