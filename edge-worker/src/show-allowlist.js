// Optional list of the shows a deployment serves (README.md, "More than one show per edge"):
// `SHOWS` in wrangler `vars`, names separated by commas. Unset, any well-formed name is a show
// (its objects are created on first use); set, every other name is 404 NO_SUCH_SHOW before any
// object is touched, so a stranger cannot make the deployment create objects for made-up names.

import { isShowName } from '#core/protocol/show-name.js';

/** @type {{ raw: unknown, names: Set<string> | null }} parsed once per isolate and value */
let parsed = { raw: undefined, names: null };

/**
 * @param {Env & { SHOWS?: string }} env SHOWS is optional: not in wrangler.jsonc, so not in the generated Env
 * @returns {Set<string> | null} the allowed show names, or null when every name is allowed
 */
export function allowedShows(env) {
  const raw = env?.SHOWS;
  if (raw !== parsed.raw) {
    const names = typeof raw === 'string' ? raw.split(',').map((n) => n.trim()).filter(isShowName) : [];
    parsed = { raw, names: typeof raw === 'string' && raw.trim() !== '' ? new Set(names) : null };
  }
  return parsed.names;
}

/**
 * @param {Env & { SHOWS?: string }} env
 * @param {string} show a well-formed show name (show-path.js)
 */
export function isShowServed(env, show) {
  const names = allowedShows(env);
  return names === null || names.has(show);
}
