// Which show (and which shard) an object is, read from the object's own name (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge)
// . Objects are only ever made with idFromName (stubs.js), and the runtime
// gives that name back inside the object as `ctx.id.name` — in the constructor, fetch, RPC, alarms
// and hibernation wake-ups alike — so nothing else (headers, RPC arguments, socket tags, storage)
// has to carry the show. Verified on local workerd by test/edge/object-identity.test.js.
//
// The names: the default show keeps the ones it always had (`main`, `main/shard/<i>`), so existing
// deployments keep their state; a named show (`/s/<show>/…`, see show-path.js) gets `show:<show>`
// and `shard:<show>:<i>`, which can never collide with those (a show name has no ":" or "/").

import { SHOW_NAME_PATTERN } from '#core/protocol/show-name.js';
import { SHOW_NAME } from './config.js';

const NAME = SHOW_NAME_PATTERN.source.slice(1, -1); // the pattern without its anchors
const NAMED_ROOT = new RegExp(`^show:(${NAME})$`);
const NAMED_SHARD = new RegExp(`^shard:(${NAME}):(\\d{1,4})$`);
const DEFAULT_SHARD = new RegExp(`^${SHOW_NAME}/shard/(\\d{1,4})$`);

/**
 * The root object's name.
 * @param {string | null} [show] a checked show name (show-path.js), or null for the default show
 * @returns {string}
 */
export function rootName(show = null) {
  return show === null ? SHOW_NAME : `show:${show}`;
}

/**
 * A shard object's name.
 * @param {number} index
 * @param {string | null} [show]
 * @returns {string}
 */
export function shardName(index, show = null) {
  return show === null ? `${SHOW_NAME}/shard/${index}` : `shard:${show}:${index}`;
}

/**
 * @typedef {{ kind: 'root', show: string | null } | { kind: 'shard', show: string | null, index: number }} ObjectIdentity
 */

/**
 * The inverse of rootName / shardName; null for any other name.
 * @param {unknown} name
 * @returns {ObjectIdentity | null}
 */
export function parseObjectName(name) {
  if (typeof name !== 'string') return null;
  if (name === SHOW_NAME) return { kind: 'root', show: null };
  const root = NAMED_ROOT.exec(name);
  if (root) return { kind: 'root', show: root[1] };
  const shard = NAMED_SHARD.exec(name) ?? DEFAULT_SHARD.exec(name);
  if (!shard) return null;
  return shard.length === 3
    ? { kind: 'shard', show: shard[1], index: Number(shard[2]) }
    : { kind: 'shard', show: null, index: Number(shard[1]) };
}

/**
 * Who this object is, from its own id. An object made any other way than stubs.js makes them has
 * no show to serve: that is a bug, so it fails loudly at construction rather than serving the
 * default show's data under another name.
 * @template {ObjectIdentity['kind']} K
 * @param {{ id: { name?: string } }} ctx the object's DurableObjectState
 * @param {K} kind what the caller expects to be
 * @returns {Extract<ObjectIdentity, { kind: K }>}
 */
export function identityOf(ctx, kind) {
  const identity = parseObjectName(ctx.id.name);
  if (identity?.kind !== kind) throw new Error(`not a ${kind} object name: ${JSON.stringify(ctx.id.name ?? null)} (see show-identity.js)`);
  return /** @type {Extract<ObjectIdentity, { kind: K }>} */ (identity);
}
