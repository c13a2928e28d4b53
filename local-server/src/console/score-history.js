// The console's memory of scores (docs/how-to/desktop-app.md#using-the-console): the recent scores (the
// host's list when it keeps one, the desktop app's; else the ones loaded in this run) and the
// last score file checked, with its problems.

const MAX_RECENT = 10;

/**
 * @typedef {object} ScoreAttempt the last score file the console checked
 * @property {string} path what was typed
 * @property {string} file the file it resolved to
 * @property {boolean} ok
 * @property {any[]} problems
 * @property {number} at wall-clock ms
 */

/**
 * @param {object} options
 * @param {{ recentScores?: () => string[] }} options.host the program hosting the server: its own list of recent scores, when it keeps one
 */
export function createScoreHistory({ host }) {
  // Scores loaded while no host keeps a list (plain `tutti serve`): remembered for this run.
  /** @type {string[]} */
  let sessionRecent = [];
  /** @type {ScoreAttempt | null} */
  let lastAttempt = null;
  return {
    /** The recent scores, newest first. */
    recent: () => (host.recentScores ? host.recentScores() : sessionRecent),
    /** @param {string} path a score the show loaded */
    loaded(path) {
      sessionRecent = [path, ...sessionRecent.filter((p) => p !== path)].slice(0, MAX_RECENT);
    },
    /** @param {ScoreAttempt} attempt */
    attempted(attempt) {
      lastAttempt = attempt;
    },
    /** The last score file checked, or null. */
    lastAttempt: () => lastAttempt,
  };
}
