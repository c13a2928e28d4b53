// One stack of closers for a server made of parts (docs/reference/cli.md#commands): each part's
// closer is added once the part runs, and closing runs them last-added first, each once, so a
// start that fails half-way stops exactly what it started and a clean stop undoes the start in
// reverse. A closer that throws is logged and the rest still run.

/**
 * @param {{ warn: (msg: string) => void }} log
 */
export function createClosers(log) {
  /** @type {Array<{ name: string, close: () => unknown }>} */
  const stack = [];
  /** @type {Promise<void> | null} */
  let closing = null;

  async function closeAll() {
    for (let part = stack.pop(); part; part = stack.pop()) {
      try {
        await part.close();
      } catch (err) {
        log.warn(`stopping ${part.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  return {
    /**
     * Add a part's closer; it runs before every closer added earlier.
     * @param {string} name the part, for the log
     * @param {() => unknown} close may return a promise, which is awaited
     */
    add(name, close) {
      if (closing) throw new Error(`cannot add ${name}: already closing`);
      stack.push({ name, close });
    },
    /**
     * Run every closer, last added first; the same promise for every call.
     * @returns {Promise<void>}
     */
    close: () => (closing ??= closeAll()),
  };
}
