// The name of a show on a shared edge deployment (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge):
// `/s/<show>/…`. Read by the edge's router and by the venue's reading of `--edge`, so both refuse
// the same names. A name ends up in Durable Object names and URLs: a short, plain charset only.

/** 1–40 characters of a-z, 0-9 and "-", not starting with "-". */
export const SHOW_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** What to tell someone whose show name is refused. */
export const SHOW_NAME_RULE = 'a show name is 1–40 characters of a-z, 0-9 and "-" (not starting with "-")';

/**
 * @param {unknown} name
 * @returns {name is string} whether `name` is a usable show name
 */
export function isShowName(name) {
  return typeof name === 'string' && SHOW_NAME_PATTERN.test(name);
}
