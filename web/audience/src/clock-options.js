// How the audience page and the musicians' part page sync their clocks (core/client/clock-sync.js,
// docs/explanation/clock-sync.md#clock-sync-and-the-flywheel): one setting for both, so a part page is exactly as precise.

/** Options for createClockSync. */
export const PAGE_CLOCK_OPTIONS = Object.freeze({
  // Learn fast after joining (or waking): ~9 s of pings, well under the server's flood limit (50 frames/s sustained).
  // Afterwards ping every 3 s while the bound is within 2 ms (a LAN), 4/s while it is wider (jitter)
  // and still narrowing; once 40 such pings no longer narrow it (an internet path), every 3 s again.
  schedule: [{ until: 128, every: 70 }],
  targetUncertainty: 2,
  refineEvery: 250,
  steadyEvery: 3000,
});
