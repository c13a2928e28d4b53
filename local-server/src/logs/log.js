// The server's log: printed (CLI) and kept in a short ring so the console can show warnings.

import { createSecrets } from './secrets.js';

/**
 * @typedef {{ info: (msg: string) => void, warn: (msg: string) => void, error: (msg: string) => void,
 *   recent: () => Array<{ t: number, level: string, msg: string }>, hide: (secret: string) => void, redact: (text: string) => string }} Log
 *   hide: a secret learnt while running (an edge token typed into the console) is never shown from then on;
 *   redact: a text with every secret this log hides replaced (what the console shows besides log lines)
 */

/**
 * @param {{ print?: (level: string, msg: string) => void, keep?: number, redact?: string[] }} [options]
 * @returns {Log}
 */
export function createLog({ print = () => {}, keep = 200, redact = [] } = {}) {
  /** @type {Array<{ t: number, level: string, msg: string }>} */
  const entries = [];
  const secrets = createSecrets(redact);
  const write = (level) => (msg) => {
    // Whatever a caller formats, a secret never reaches a log line.
    const text = secrets.hide(msg);
    entries.push({ t: Date.now(), level, msg: text });
    if (entries.length > keep) entries.shift();
    print(level, text);
  };
  return {
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    recent: () => entries.slice(),
    hide: secrets.add,
    redact: secrets.hide,
  };
}
