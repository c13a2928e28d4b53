// Stubs for the objects of a show: one root and numbered shards, named by show-identity.js (the
// objects read their show back from that name, so callers pass nothing else).

import { rootName, shardName } from './show-identity.js';

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
