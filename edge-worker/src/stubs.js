// Names of the objects of a show: one root and numbered shards.

import { SHOW_NAME } from './config.js';

/**
 * @param {Env} env
 * @param {string} [show]
 */
export function rootStub(env, show = SHOW_NAME) {
  return env.SHOW.get(env.SHOW.idFromName(show));
}

/**
 * @param {Env} env
 * @param {number} index
 * @param {string} [show]
 */
export function shardStub(env, index, show = SHOW_NAME) {
  return env.SHARD.get(env.SHARD.idFromName(`${show}/shard/${index}`));
}
