// What an operator types for the edge (`--edge`, the console's edge panel): `https://edge.example.com`,
// `http://127.0.0.1:8787/`, `wss://…/publish`. One reading of it for the uplink (publish
// WebSocket), the media sync (HTTP base) and the venue probe (/healthz).
// A shared edge runs several shows (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): the operator names
// the show in the URL (`https://edge.example.com/s/spring-gala`), and everything the venue sends
// goes under it. The show name is checked here, before anything is sent.

import { SHOW_NAME_RULE, isShowName } from '#core/protocol/show-name.js';

/**
 * @typedef {{ secure: boolean, host: string, path: string, search: string, show: string | null }} EdgeAddress
 *   path: without trailing slashes and without a final /publish;
 *   show: the show named by a path ending in /s/<show>, null for the edge's default show
 */

/** `…/s/<show>` at the end of the path; also `…/s` (no name) and `/s/<show>/more` (both refused). */
const SHOW_IN_PATH = /(?:^|\/)s(?:\/([^/]*)(\/.*)?)?$/;

const SECURE = { 'https:': true, 'wss:': true, 'http:': false, 'ws:': false };

/**
 * @param {string} raw
 * @returns {{ address: EdgeAddress | null, reason: string | null }} the address, or why it is not usable
 */
export function parseEdgeUrl(raw) {
  let parsed;
  try {
    parsed = new URL(String(raw));
  } catch {
    return { address: null, reason: `--edge must be a URL such as https://edge.example.com (got "${raw}")` };
  }
  const secure = /** @type {Record<string, boolean>} */ (SECURE)[parsed.protocol];
  if (secure === undefined)
    return { address: null, reason: `--edge must start with https://, http://, wss:// or ws:// (got "${parsed.protocol}")` };
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/publish$/, '');
  const named = SHOW_IN_PATH.exec(path);
  if (named && named[2]) return { address: null, reason: `--edge must end with the show's folder, /s/<show> (got "${path}")` };
  if (named && !isShowName(named[1] ?? ''))
    return { address: null, reason: `--edge names the show "${named[1] ?? ''}" (/s/<show>), but ${SHOW_NAME_RULE}` };
  return { address: { secure, host: parsed.host, path, search: parsed.search, show: named ? named[1] : null }, reason: null };
}

/**
 * The publish WebSocket URL (the query, if any, is kept).
 * @param {string} raw
 * @returns {{ url: string | null, reason: string | null }} url, or the reason it is not usable
 */
export function edgePublishUrl(raw) {
  const { address, reason } = parseEdgeUrl(raw);
  if (!address) return { url: null, reason };
  return { url: `${address.secure ? 'wss' : 'ws'}://${address.host}${address.path}/publish${address.search}`, reason: null };
}

/**
 * The edge's HTTP base URL (no trailing slash, no query), or null when unusable.
 * @param {string} raw
 * @returns {string | null}
 */
export function edgeHttpBase(raw) {
  const { address } = parseEdgeUrl(raw);
  return address ? `${address.secure ? 'https' : 'http'}://${address.host}${address.path}` : null;
}

/**
 * The edge's public /healthz, or null when unusable.
 * @param {string} raw
 * @returns {string | null}
 */
export function healthzUrl(raw) {
  const base = edgeHttpBase(raw);
  return base === null ? null : `${base}/healthz`;
}
