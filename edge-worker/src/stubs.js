// Names of the objects of a show: one root and numbered shards. The default show keeps the
// names it always had (`main`, `main/shard/<i>`), so existing deployments keep their state; a
// named show (`/s/<show>/…`, see show-path.js) gets `show:<show>` and `shard:<show>:<i>`, which
// can never collide with those (a show name has no ":" or "/").

import { SHOW_NAME } from './config.js';

/**
 * @param {string | null} [show] a checked show name (show-path.js), or null for the default show
 * @returns {string}
 */
export function rootName(show = null) {
  return show === null ? SHOW_NAME : `show:${show}`;
}

/**
 * @param {number} index
 * @param {string | null} [show]
 * @returns {string}
 */
export function shardName(index, show = null) {
  return show === null ? `${SHOW_NAME}/shard/${index}` : `shard:${show}:${index}`;
}

/**
 * @param {Env} env
 * @param {string | null} [show]
 */
export function rootStub(env, show = null) {
  return env.SHOW.get(env.SHOW.idFromName(rootName(show)));
}

/**
 * @param {Env} env
 * @param {number} index
 * @param {string | null} [show]
 */
export function shardStub(env, index, show = null) {
  return env.SHARD.get(env.SHARD.idFromName(shardName(index, show)));
}
