// One log line per transport or tempo action, whoever made it (the console, the control API,
// OSC-in), so the console's Log panel and the log file tell what happened during a show.

/**
 * @param {{ info: (msg: string) => void }} log
 * @param {any} engine the show engine (status() after the action)
 * @param {string} source who acted, e.g. "control API", "OSC-in"
 * @returns {{ transport: (action: string) => void, tempo: (bpm: number | null) => void }}
 */
export function createTransportLog(log, engine, source) {
  const where = () => {
    const { transport, position } = engine.status();
    return `${transport} at bar ${position.bar} beat ${position.beat}`;
  };
  return {
    transport: (action) => log.info(`transport: ${action} → ${where()} (${source})`),
    tempo: (bpm) => log.info(`tempo: ${bpm === null ? 'back to the written tempo' : `${bpm} bpm`} → ${engine.status().tempo} bpm now (${source})`),
  };
}
