// The server's log file (docs/how-to/venue-server-unattended.md#logs): one JSON line per entry (pino), in the state folder
// or the desktop app's user-data folder, rotated by size (tutti.log → tutti.log.1 → … →
// tutti.log.N, the oldest dropped). Secrets (the control token, edge tokens) are replaced on
// every line before it is written, whatever logged it — the same rule as log.js.

import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createSecrets } from './secrets.js';
import { openForAppendSync } from '../files/safe-write.js';

export const LOG_MAX_BYTES = 5 * 1024 * 1024;
export const LOG_KEEP = 3;

/**
 * A size-rotated, append-only file that pino writes to (synchronously: a line is on disk when
 * the call returns, so the last words before a crash are kept).
 * @param {{ file: string, maxBytes?: number, keep?: number, secrets?: string[] }} options
 * @returns {{ write: (line: string) => boolean, close: () => void, hide: (secret: string) => void, redact: (text: string) => string }}
 */
export function openRotatingFile({ file, maxBytes = LOG_MAX_BYTES, keep = LOG_KEEP, secrets = [] }) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const hidden = createSecrets(secrets);
  // A link planted in the state folder is refused, never appended through (files/safe-write.js).
  let fd = openForAppendSync(file, 0o600);
  let size = fs.fstatSync(fd).size;

  function rotate() {
    fs.closeSync(fd);
    fs.rmSync(`${file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n -= 1) {
      if (fs.existsSync(`${file}.${n}`)) fs.renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    }
    fs.renameSync(file, `${file}.1`);
    fd = openForAppendSync(file, 0o600);
    size = 0;
  }

  return {
    write(line) {
      const text = hidden.hide(line);
      const bytes = Buffer.byteLength(text);
      if (size > 0 && size + bytes > maxBytes) rotate();
      fs.writeSync(fd, text);
      size += bytes;
      return true;
    },
    close() {
      fs.closeSync(fd);
    },
    hide: hidden.add,
    redact: hidden.hide,
  };
}

/**
 * A pino logger writing JSON lines to a rotated file; Fastify takes it as its logger.
 * @param {{ file: string, maxBytes?: number, keep?: number, secrets?: string[] }} options
 * @returns {{ logger: import('pino').Logger, close: () => void, hide: (secret: string) => void }}
 */
export function createFileLogger(options) {
  const out = openRotatingFile(options);
  // A message is redacted before pino serialises it, and the written line again in every escaped
  // form (secrets.js): an object pino serialises (a request, an error) can carry a secret too.
  const hooks = {
    /** @param {any[]} args @param {(...a: any[]) => void} method */
    logMethod(args, method) {
      method.apply(
        this,
        args.map((a) => (typeof a === 'string' ? out.redact(a) : a)),
      );
    },
  };
  const logger = pino({ level: 'info', base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, hooks }, out);
  return { logger, close: () => out.close(), hide: out.hide };
}

/**
 * The server's log (log.js) with every entry also written to the log file; a secret learnt while
 * running is hidden from both.
 * @param {import('./log.js').Log} log
 * @param {{ logger: import('pino').Logger, hide: (secret: string) => void }} file createFileLogger's
 * @returns {import('./log.js').Log}
 */
export function teeToFile(log, { logger, hide }) {
  return {
    info: (msg) => {
      log.info(msg);
      logger.info(String(msg));
    },
    warn: (msg) => {
      log.warn(msg);
      logger.warn(String(msg));
    },
    error: (msg) => {
      log.error(msg);
      logger.error(String(msg));
    },
    recent: () => log.recent(),
    redact: (text) => log.redact(text),
    hide: (secret) => {
      log.hide(secret);
      hide(secret);
    },
  };
}
