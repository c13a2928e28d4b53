// The shows a deployment serves under /s/<show>/ (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge):
// `SHOWS` in wrangler `vars`, names separated by commas. Unset, only the default show is served:
// every /s/<name>/ is 404 NO_SUCH_SHOW before any object is touched, so a stranger cannot make
// the deployment create objects for made-up names. `SHOWS="*"` serves any well-formed name (its
// objects are created on first use): an explicit opt-in for a private or test deployment.

import { isShowName } from '#core/protocol/show-name.js';

/** @type {{ raw: unknown, names: Set<string> | null }} parsed once per isolate and value (nothing parsed yet: a raw no env can hold) */
let parsed = { raw: Symbol('unparsed'), names: null };

/**
 * @param {Env & { SHOWS?: string }} env SHOWS is optional: not in wrangler.jsonc, so not in the generated Env
 * @returns {Set<string> | null} the allowed show names (empty: only the default show), or null when every name is allowed (`*`)
 */
export function allowedShows(env) {
  const raw = env?.SHOWS;
  if (raw !== parsed.raw) {
    const names =
      typeof raw === 'string'
        ? raw
            .split(',')
            .map((n) => n.trim())
            .filter(isShowName)
        : [];
    parsed = { raw, names: typeof raw === 'string' && raw.trim() === '*' ? null : new Set(names) };
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
