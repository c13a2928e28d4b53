// The server's log: printed (CLI) and kept in a short ring so the console can show warnings.

/**
 * @typedef {{ info: (msg: string) => void, warn: (msg: string) => void, error: (msg: string) => void, recent: () => Array<{ t: number, level: string, msg: string }> }} Log
 */

/**
 * @param {{ print?: (level: string, msg: string) => void, keep?: number, redact?: string[] }} [options]
 * @returns {Log}
 */
export function createLog({ print = () => {}, keep = 200, redact = [] } = {}) {
  /** @type {Array<{ t: number, level: string, msg: string }>} */
  const entries = [];
  const secrets = redact.filter((s) => typeof s === 'string' && s.length >= 4);
  const write = (level) => (msg) => {
    // Whatever a caller formats, a secret never reaches a log line.
    let text = String(msg);
    for (const secret of secrets) text = text.split(secret).join('***');
    entries.push({ t: Date.now(), level, msg: text });
    if (entries.length > keep) entries.shift();
    print(level, text);
  };
  return { info: write('info'), warn: write('warn'), error: write('error'), recent: () => entries.slice() };
}
