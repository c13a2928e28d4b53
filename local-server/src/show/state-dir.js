// Where `tutti serve` keeps what must survive a crash (the show position, docs/how-to/venue-server-unattended.md#crash-resume)
// and its log file: the platform's per-user state folder.

import os from 'node:os';
import path from 'node:path';
import { PART_KEY_FILE } from '../parts/part-key.js';

/**
 * The platform's state folder for Tutti.
 * Linux and others: $XDG_STATE_HOME/tutti, else ~/.local/state/tutti;
 * macOS: ~/Library/Application Support/Tutti; Windows: %LOCALAPPDATA%\Tutti.
 * @param {{ env?: Record<string, string | undefined>, platform?: string, home?: string }} [options]
 * @returns {string}
 */
export function defaultStateDir({ env = process.env, platform = process.platform, home = os.homedir() } = {}) {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Tutti');
  if (platform === 'win32') return path.win32.join(env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local'), 'Tutti');
  const xdg = env.XDG_STATE_HOME;
  // XDG: a relative value is invalid and must be ignored.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state'), 'tutti');
}

/** File names inside the state folder. */
export const STATE_FILE_NAME = 'show-state.json';
export const LOG_FILE_NAME = 'tutti.log';
export const RECORDS_DIR_NAME = 'records';
/** Engraved notation, by content hash (docs/reference/notation.md#the-cache). */
export const NOTATION_DIR_NAME = 'notation';

/**
 * The resume file a server should use: `--state-file`, else show-state.json in `dir`;
 * null with `--no-resume`.
 * @param {{ stateFile?: string | null, resume?: boolean }} options parsed `tutti serve` options
 * @param {string} dir the state folder
 * @returns {string | null}
 */
export function resumeFileFor({ stateFile = null, resume = true }, dir) {
  if (!resume) return null;
  return path.resolve(stateFile ?? path.join(dir, STATE_FILE_NAME));
}

/**
 * The log file a server should write: `--log-file`, else tutti.log in `dir`; null with `--no-log-file`.
 * @param {{ logFile?: string | null, logToFile?: boolean }} options parsed `tutti serve` options
 * @param {string} dir the state folder
 * @returns {string | null}
 */
export function logFileFor({ logFile = null, logToFile = true }, dir) {
  if (!logToFile) return null;
  return path.resolve(logFile ?? path.join(dir, LOG_FILE_NAME));
}

/**
 * The file that keeps the musicians' part-page key across restarts (part-key.js,
 * docs/reference/part-key.md): always in the state folder.
 * @param {string} dir the state folder
 * @returns {string}
 */
export function partKeyFileFor(dir) {
  return path.resolve(dir, PART_KEY_FILE);
}

/**
 * The folder performance records go to (docs/how-to/record-and-replay.md#the-performance-record): `--record-dir`,
 * else records/ in `dir`; null with `--no-record`.
 * @param {{ recordDir?: string | null, record?: boolean }} options parsed `tutti serve` options
 * @param {string} dir the state folder
 * @returns {string | null}
 */
export function recordDirFor({ recordDir = null, record = true }, dir) {
  if (!record) return null;
  return path.resolve(recordDir ?? path.join(dir, RECORDS_DIR_NAME));
}
