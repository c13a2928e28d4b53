// The console's view of the server's log: the entries the live feed has not sent yet. Secrets are
// already hidden in every entry by the log itself (log.js; an edge token typed into the console is
// added with `log.hide`), so the console, the terminal, the log file and the performance record
// all show the same redacted text.

/**
 * @param {object} options
 * @param {{ recent: () => Array<{ t: number, level: string, msg: string }> }} options.log
 */
export function createLogCursor({ log }) {
  const copied = (entries) => entries.map((e) => ({ t: e.t, level: e.level, msg: e.msg }));
  // log.recent() hands out the same entry objects each time: the last one seen marks the cursor.
  let lastSeen = null;
  return {
    /** Every entry the log keeps. */
    all: () => copied(log.recent()),
    /** The entries since the last call. */
    fresh() {
      const entries = log.recent();
      const at = lastSeen ? entries.lastIndexOf(lastSeen) : -1;
      const fresh = at >= 0 ? entries.slice(at + 1) : entries.filter((e) => !lastSeen || e.t >= lastSeen.t);
      if (entries.length) lastSeen = entries[entries.length - 1];
      return copied(fresh);
    },
  };
}
