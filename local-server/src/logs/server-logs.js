// The show server's logs (docs/how-to/venue-server-unattended.md#logs): what the terminal (or the desktop app) prints, and
// the JSON log file that gets everything the log says plus Fastify's own errors with their stacks.

import { LogController } from 'fastify';
import { createLog } from './log.js';
import { createFileLogger, teeToFile } from './log-file.js';

/**
 * @param {object} options
 * @param {import('./log.js').Log} [options.log] the printed log (default: the terminal's)
 * @param {string | null} [options.logFile] the JSON log file, or none
 * @param {Array<string | null | undefined>} options.secrets never written (the tokens)
 */
export function openServerLogs({ log, logFile, secrets }) {
  const printed = log ?? createLog({ redact: secrets });
  const fileLog = logFile ? createFileLogger({ file: logFile, secrets }) : null;
  return {
    /** The terminal's (or the desktop app's) log alone: one line for a phone's 500. */
    printed,
    /** The log everything uses: the printed log, and the file when there is one. */
    log: fileLog ? teeToFile(printed, fileLog) : printed,
    fileLog,
    /**
     * A Fastify listener's logging: into the file, one child logger per listener, or none.
     * @param {string} listener
     */
    fastifyLogging: (listener) =>
      fileLog
        ? { loggerInstance: fileLog.logger.child({ listener }), logController: new LogController({ disableRequestLogging: true }) }
        : { logger: false },
  };
}
