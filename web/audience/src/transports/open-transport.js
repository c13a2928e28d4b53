// Opening one transport for the connection (connection.js): the transports this browser has, in
// the page's order, and a "live" record of one attempt with its silence deadline.

import { openWebSocket } from './ws-transport.js';
import { openEventSource } from './sse-transport.js';
import { openPolling } from './poll-transport.js';

const OPENERS = { ws: openWebSocket, sse: openEventSource, poll: openPolling };
/** A transport that connects but delivers no valid state this long has failed. */
const SILENCE_MS = 8000;

/**
 * One transport attempt: the current one, or a probe for a better one.
 * @typedef {{ name: string, handle: any, gotState: boolean, silence: any }} Live
 */

/**
 * The transports of `order` this browser has (polling always).
 * @param {string[]} [order]
 * @returns {string[]}
 */
export function supportedTransports(order) {
  return (order ?? ['ws', 'sse', 'poll']).filter(
    (n) => (n === 'ws' && 'WebSocket' in window) || (n === 'sse' && 'EventSource' in window) || n === 'poll',
  );
}

/**
 * Open transport `name`; when it delivers no state within SILENCE_MS it is closed and reported
 * closed (`events.onClose` is the caller's, so the live record is passed back to it).
 * @param {object} options
 * @param {string} options.name 'ws' | 'sse' | 'poll'
 * @param {string} options.base
 * @param {'full' | 'lean'} options.stream
 * @param {() => ({ since: number, epoch: string } | null)} options.cursor
 * @param {(live: Live) => import('./events.js').TransportEvents} options.events
 * @param {(live: Live, reason: string) => void} options.onClose
 * @returns {Live}
 */
export function openLive({ name, base, stream, cursor, events, onClose }) {
  /** @type {Live} */
  const live = { name, handle: null, gotState: false, silence: null };
  live.handle = OPENERS[name]({ base, stream, cursor, events: events(live) });
  live.silence = setTimeout(() => {
    live.handle.close();
    onClose(live, `${name}: no state within ${SILENCE_MS / 1000} s`);
  }, SILENCE_MS);
  return live;
}
