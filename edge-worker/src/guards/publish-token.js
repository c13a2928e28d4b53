// Which secret may publish to a show (docs/explanation/threat-model.md#several-shows-one-deployment). A named show
// with a secret of its own, `PUBLISH_TOKEN_<SHOW>` (upper case, "-" → "_"), is published to with
// that token only; a named show without one, and the default show, use `PUBLISH_TOKEN`. So a guest
// composer given their show's token reaches no other show, and the house token cannot take over
// a show that has its own. One secret per show (not one JSON map) so that `wrangler secret put`
// adds, rotates or revokes one show's token without rewriting, or risking, anyone else's.

/**
 * The name of a show's own publish secret: `gala` → `PUBLISH_TOKEN_GALA`,
 * `spring-gala` → `PUBLISH_TOKEN_SPRING_GALA`. Show names have no "_" (core/protocol/show-name.js),
 * so two shows never map to the same name.
 * @param {string} show a well-formed show name
 * @returns {string}
 */
export function showTokenName(show) {
  return `PUBLISH_TOKEN_${show.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * The secret that publishes to `show`, and its name (for the 401 message; never the value).
 * @param {Env} env per-show secrets are set with `wrangler secret put`, so they are not in the generated Env
 * @param {string | null} show null: the default show
 * @returns {{ name: string, token: string, own: boolean }} own: the show has a token of its own
 */
export function publishTokenFor(env, show) {
  const secrets = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (env));
  if (show !== null) {
    const name = showTokenName(show);
    const token = secrets[name];
    if (typeof token === 'string' && token !== '') return { name, token, own: true };
  }
  const token = secrets.PUBLISH_TOKEN;
  return { name: 'PUBLISH_TOKEN', token: typeof token === 'string' ? token : '', own: false };
}

/**
 * The 401 message: names the secret a publisher must present, never its value.
 * @param {string | null} show
 * @param {{ name: string, own: boolean }} expected what publishTokenFor returned
 * @returns {string}
 */
export function unauthorizedMessage(show, expected) {
  if (show === null) return 'publishing needs Authorization: Bearer <PUBLISH_TOKEN>';
  if (expected.own)
    return `publishing to show "${show}" needs Authorization: Bearer <${expected.name}> (this show's own token; PUBLISH_TOKEN does not publish here)`;
  return `publishing to show "${show}" needs Authorization: Bearer <PUBLISH_TOKEN> (no ${showTokenName(show)} is set for it)`;
}
