// The console's view of the server's log: every entry redacted (typed-in secrets become ***), and
// the entries the live feed has not sent yet.

/**
 * @param {object} options
 * @param {{ recent: () => Array<{ t: number, level: string, msg: string }> }} options.log
 * @param {Set<string>} options.secrets
 */
export function createLogCursor({ log, secrets }) {
  const redact = (text) => {
    let out = String(text);
    for (const s of secrets) out = out.split(s).join('***');
    return out;
  };
  const redacted = (entries) => entries.map((e) => ({ t: e.t, level: e.level, msg: redact(e.msg) }));
  // log.recent() hands out the same entry objects each time: the last one seen marks the cursor.
  let lastSeen = null;
  return {
    /** Every entry the log keeps, redacted. */
    all: () => redacted(log.recent()),
    /** The entries since the last call, redacted. */
    fresh() {
      const entries = log.recent();
      const at = lastSeen ? entries.lastIndexOf(lastSeen) : -1;
      const fresh = at >= 0 ? entries.slice(at + 1) : entries.filter((e) => !lastSeen || e.t >= lastSeen.t);
      if (entries.length) lastSeen = entries[entries.length - 1];
      return redacted(fresh);
    },
  };
}
