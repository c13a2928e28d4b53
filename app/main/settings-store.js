// The console's settings (OSC targets, ports, edge URL, recent scores) in one JSON file in the
// user's config directory: app.getPath('userData') in the desktop app, $XDG_CONFIG_HOME/tutti
// or ~/.config/tutti when `npm start` serves the console in a browser.
//
// Only known keys with the right types are read or written, so a secret (the control token,
// an edge token in clear) can never end up in the file — the desktop app stores the edge token
// only as safeStorage ciphertext, `edgeTokenEncrypted` (edge-token-store.js) — and a hand-edited mistake falls back to the
// default for that key instead of stopping the show. Writes are atomic (temp file + rename).

import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkTargetOptions, replaceFileSync } from '../../local-server/index.js';

export const SETTINGS_FILE = 'settings.json';
export const MAX_RECENT_SCORES = 10;

/**
 * @typedef {object} Settings
 * @property {number} version
 * @property {number} audiencePort preferred audience port (another is used when it is taken)
 * @property {number} controlPort preferred control port
 * @property {Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>} oscTargets (mode and offset only when not the defaults)
 * @property {number | null} oscInPort
 * @property {string | null} edgeUrl the edge's public URL
 * @property {string | null} edgeTokenEncrypted its publish token encrypted by Electron's safeStorage (base64), desktop app only
 * @property {number | null} maxClients
 * @property {string[]} recentScores newest first
 */

/** @returns {Settings} */
export function defaultSettings() {
  return {
    version: 1,
    audiencePort: 8080,
    controlPort: 8081,
    oscTargets: [],
    oscInPort: null,
    edgeUrl: null,
    edgeTokenEncrypted: null,
    maxClients: null,
    recentScores: [],
  };
}

const isPort = (v, allowZero = false) => Number.isInteger(v) && v >= (allowZero ? 0 : 1) && v <= 65535;
const isTarget = (t) =>
  t &&
  typeof t === 'object' &&
  typeof t.host === 'string' &&
  t.host.length > 0 &&
  t.host.length <= 253 &&
  isPort(t.port) &&
  !('error' in checkTargetOptions(t));
/** A target as saved: host and port, plus its OSC mode and offset when they are not the defaults. */
const savedTarget = (t) => ({
  host: t.host,
  port: t.port,
  ...(t.mode === 'ahead' && { mode: t.mode }),
  ...(t.offsetMs && { offsetMs: t.offsetMs }),
});
const isCiphertext = (v) => v === null || (typeof v === 'string' && v.length > 0 && v.length <= 16384 && /^[A-Za-z0-9+/]+={0,2}$/.test(v));
const isHttpUrl = (v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/**
 * Keep only well-formed known keys; anything else takes its default.
 * @param {unknown} raw
 * @returns {{ settings: Settings, dropped: string[] }}
 */
export function sanitizeSettings(raw) {
  const settings = defaultSettings();
  const dropped = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { settings, dropped: raw === undefined ? [] : ['(whole file)'] };
  const r = /** @type {Record<string, any>} */ (raw);
  const take = (key, ok, value = r[key]) => {
    if (!(key in r)) return;
    if (ok) settings[key] = value;
    else dropped.push(key);
  };
  take('audiencePort', isPort(r.audiencePort, true));
  take('controlPort', isPort(r.controlPort, true));
  take(
    'oscTargets',
    Array.isArray(r.oscTargets) && r.oscTargets.every(isTarget),
    Array.isArray(r.oscTargets) ? r.oscTargets.slice(0, 64).map(savedTarget) : [],
  );
  take('oscInPort', r.oscInPort === null || isPort(r.oscInPort, true));
  take('edgeUrl', r.edgeUrl === null || (typeof r.edgeUrl === 'string' && isHttpUrl(r.edgeUrl)));
  take('edgeTokenEncrypted', isCiphertext(r.edgeTokenEncrypted));
  take('maxClients', r.maxClients === null || (Number.isInteger(r.maxClients) && r.maxClients > 0));
  take(
    'recentScores',
    Array.isArray(r.recentScores) && r.recentScores.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 4096),
    Array.isArray(r.recentScores) ? r.recentScores.slice(0, MAX_RECENT_SCORES) : [],
  );
  for (const key of Object.keys(r)) if (!(key in settings)) dropped.push(key);
  return { settings, dropped };
}

/**
 * Apply what the console changed ({ scorePath } | { oscTargets } | { edgeUrl } | { edgeTokenEncrypted }) to settings.
 * Pure: returns a new object. Unknown changes are ignored.
 * @param {Settings} settings
 * @param {Record<string, unknown>} change
 * @returns {Settings}
 */
export function applySettingsChange(settings, change) {
  const next = { ...settings };
  if (typeof change.scorePath === 'string' && change.scorePath) {
    next.recentScores = [change.scorePath, ...settings.recentScores.filter((p) => p !== change.scorePath)].slice(0, MAX_RECENT_SCORES);
  }
  if (Array.isArray(change.oscTargets) && change.oscTargets.every(isTarget)) next.oscTargets = change.oscTargets.map(savedTarget);
  if ('edgeUrl' in change && (change.edgeUrl === null || (typeof change.edgeUrl === 'string' && isHttpUrl(change.edgeUrl))))
    next.edgeUrl = /** @type {string | null} */ (change.edgeUrl);
  if ('edgeTokenEncrypted' in change && isCiphertext(change.edgeTokenEncrypted))
    next.edgeTokenEncrypted = /** @type {string | null} */ (change.edgeTokenEncrypted);
  if (change.clearRecent === true) next.recentScores = [];
  return next;
}

/**
 * Where `npm start` keeps settings when there is no Electron: $XDG_CONFIG_HOME/tutti, else
 * %APPDATA%\tutti on Windows, else ~/.config/tutti.
 * @param {Record<string, string | undefined>} [env]
 * @param {string} [platform]
 * @param {string} [home]
 */
export function browserConfigDir(env = process.env, platform = process.platform, home = env.HOME || homedir()) {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'tutti');
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'tutti');
  return join(home, '.config', 'tutti');
}

/**
 * @param {{ dir: string, warn?: (msg: string) => void }} options
 */
export function createSettingsStore({ dir, warn = () => {} }) {
  const path = join(dir, SETTINGS_FILE);
  let current = defaultSettings();

  function load() {
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (err.code !== 'ENOENT') warn(`cannot read settings ${path}: ${err.message}; using defaults`);
      current = defaultSettings();
      return current;
    }
    let raw;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      warn(`settings ${path} is not valid JSON (${err.message}); using defaults until the console saves again`);
      current = defaultSettings();
      return current;
    }
    const { settings, dropped } = sanitizeSettings(raw);
    if (dropped.length) warn(`settings ${path}: ignored ${dropped.join(', ')}`);
    current = settings;
    return current;
  }

  function save(settings) {
    current = sanitizeSettings(settings).settings;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Never through a link, and atomic (docs/reference/score-editing-api.md#safe-writes).
      replaceFileSync(path, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
    } catch (err) {
      warn(`cannot save settings to ${path}: ${err.message}`);
    }
    return current;
  }

  return {
    path,
    load,
    get: () => current,
    save,
    /** @param {Record<string, unknown>} change */
    update: (change) => save(applySettingsChange(current, change)),
  };
}
