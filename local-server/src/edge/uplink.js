// The venue server's side of the edge mirror (`tutti serve --edge URL --edge-token T`): one
// authenticated WebSocket to the edge's /publish. It never queues: on (re)connect the edge's
// hello says where it stands and the uplink sends exactly the deltas it missed from the state
// stream's replay window, or a snapshot, so memory stays bounded while the edge is away and the
// remote state always converges. Parts: publisher-socket.js (the socket, reconnects),
// edge-replies.js (what the edge says), uplink-keepalive.js (pings, alive frames),
// publish-cursor.js (what the edge has, what to send).

import WebSocket from 'ws';
import { PublisherClose } from '#core/protocol/publisher.js';
import { edgePublishUrl } from './edge-url.js';
import { createEdgeReplies } from './edge-replies.js';
import { createPublisherConnection, messageOf } from './publisher-socket.js';
import { createPublishCursor } from './publish-cursor.js';
import { createUplinkKeepalive } from './uplink-keepalive.js';

/** Above this much unsent data the uplink stops writing; the next check catches up (deltas or a snapshot). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How often the uplink compares the stream with what the edge has, whatever publish() was told. */
const CHECK_INTERVAL_MS = 1000;
/**
 * The edge closes a publisher with this code when a newer one connects with the same token
 * (docs/explanation/edge-design.md#root-srcshowshowjs-class-show). Reconnecting would replace the other venue in turn, and the
 * two would take the show from each other several times a second: stop until the operator says.
 */
export const REPLACED_CLOSE_CODE = PublisherClose.REPLACED;
const REPLACED_WARNING =
  '!!! REPLACED: another venue server connected to this edge with the same publish token. ' +
  'This one has STOPPED publishing so the two do not take the show from each other. ' +
  "Stop the other one, then resume with the console's edge switch or POST /api/edge/resume.";

/**
 * @typedef {object} UplinkStatus
 * @property {string} url the edge's publish endpoint
 * @property {'connecting' | 'connected' | 'replaced' | 'closed'} state 'replaced': another publisher
 *   took the edge over; this uplink waits for resume()
 * @property {number | null} replacedAt when it was replaced (ms since the epoch)
 * @property {boolean} connected authenticated and greeted by the edge
 * @property {string | null} ackedEpoch
 * @property {number | null} ackedSeq last seq the edge confirmed
 * @property {number | null} lag stream seq − acked seq; null while the edge is not on the stream's epoch
 * @property {number | null} remoteViewers viewers connected to the edge, as it last reported
 * @property {number} reconnects
 * @property {string | null} lastError
 *
 * @typedef {object} EdgeUplink
 * @property {(json?: string) => void} publish tell the uplink the stream changed (pass the new envelope JSON)
 * @property {() => UplinkStatus} status
 * @property {() => boolean} resume reconnect after being replaced (false when it was not replaced)
 * @property {() => Promise<void>} close
 *
 * @typedef {object} UplinkStream the parts of a core/stream/state-stream.js StateStream the uplink reads
 * @property {() => { seq: number, json: string }} snapshot
 * @property {(seq: number) => string[] | null} deltasSince
 * @property {() => string} epoch
 * @property {() => number} seq
 */

/**
 * @param {object} options
 * @param {string} options.url the edge's base URL
 * @param {string} options.token the edge's PUBLISH_TOKEN
 * @param {UplinkStream} options.stream
 * @param {{ info?: (...args: any[]) => void, warn?: (...args: any[]) => void }} [options.log]
 * @param {(status: UplinkStatus) => void} [options.onStatus] called on connect, disconnect, errors and acks
 * @param {(report: { key: string, counts: number[], total: number, final?: boolean }) => void} [options.onVotes] the edge's vote totals (docs/reference/audience-protocol.md#audience-voices)
 * @param {(n: number) => void} [options.onTaps] reaction taps the edge's viewers sent since its last report
 * @returns {EdgeUplink}
 */
export function createEdgeUplink({ url, token, stream, log = {}, onStatus = () => {}, onVotes = () => {}, onTaps = () => {} }) {
  const info = (/** @type {string} */ message) => log.info?.(`edge: ${message}`);
  const warn = (/** @type {string} */ message) => log.warn?.(`edge: ${message}`);
  const target = edgePublishUrl(url);

  let closed = false;
  /** @type {number | null} set when the edge replaced us; nothing reconnects until resume() */
  let replacedAt = null;
  /** @type {import('./edge-replies.js').UplinkLink} */
  const link = { connected: false, everConnected: false, attempt: 0, lastError: null, remoteViewers: null };

  function status() {
    /** @type {UplinkStatus['state']} */
    const state = closed ? 'closed' : replacedAt !== null ? 'replaced' : link.connected ? 'connected' : 'connecting';
    const { connected, remoteViewers, lastError } = link;
    const reconnects = connection.reconnects();
    return { url: target.url ?? String(url), state, replacedAt, connected, ...cursor.status(), remoteViewers, reconnects, lastError };
  }

  function notify() {
    try {
      onStatus(status());
    } catch (err) {
      warn(`onStatus threw: ${messageOf(err)}`);
    }
  }

  /** @param {string} text */
  function send(text) {
    const ws = connection.current();
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(text);
    return true;
  }

  // Bring the edge up to the stream's head (publish-cursor.js). Called on hello, on publish() and
  // by the periodic check; never while the socket is not open or has a backlog.
  function safePump() {
    const ws = connection.current();
    try {
      if (!link.connected || !ws || ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
      cursor.pump();
    } catch (err) {
      link.lastError = `SEND: ${messageOf(err)}`;
      warn(`could not send to the edge: ${messageOf(err)}`);
    }
  }

  /**
   * The current socket closed: stop when another venue replaced us, else reconnect.
   * @param {number} code
   */
  function onClosed(code) {
    keepalive.stopAlive();
    const wasConnected = link.connected;
    link.connected = false;
    const next = afterClose(code, { link, closed, wasConnected, warn });
    if (next === 'replaced') replacedAt = Date.now();
    notify();
    if (next === 'reconnect' && replacedAt === null) connection.reconnectLater();
  }

  const cursor = createPublishCursor({ stream, send });
  const keepalive = createUplinkKeepalive({
    current: () => connection.current(),
    onSilent: () => {
      link.lastError = 'TIMEOUT: the edge stopped answering pings';
    },
  });
  const onText = createEdgeReplies({
    link,
    cursor,
    startAlive: keepalive.startAlive,
    pump: safePump,
    notify,
    where: target.url ?? url,
    info,
    warn,
    onVotes,
    onTaps,
  });
  const connection = createPublisherConnection({ url: target.url ?? '', token, link, onText, onOpen: keepalive.watch, onClosed });
  const checkTimer = setInterval(safePump, CHECK_INTERVAL_MS);
  checkTimer.unref?.();

  if (target.url) connection.connect();
  else {
    link.lastError = `BAD_URL: ${target.reason}`;
    warn(target.reason);
  }

  return {
    publish: () => safePump(),
    status,
    resume() {
      if (closed || replacedAt === null) return false;
      replacedAt = null;
      Object.assign(link, { lastError: null, attempt: 0 });
      info('resuming: publishing to the edge again (the other venue server will be replaced)');
      connection.connect();
      notify();
      return true;
    },
    close() {
      closed = true;
      clearInterval(checkTimer);
      keepalive.close();
      link.connected = false;
      return connection.close();
    },
  };
}

/**
 * What a closed publish socket means (docs/reference/cli.md#commands; the edge's close codes are the
 * publisher protocol's): another venue replaced this one (stop until resume), or a disconnect to
 * report and reconnect from, unless the uplink itself was closed. Says so in link.lastError and the log.
 * @param {number} code the socket's close code
 * @param {{ link: import('./edge-replies.js').UplinkLink, closed: boolean, wasConnected: boolean, warn: (message: string) => void }} state
 * @returns {'replaced' | 'reconnect' | 'stop'}
 */
function afterClose(code, { link, closed, wasConnected, warn }) {
  if (code === REPLACED_CLOSE_CODE && !closed) {
    link.lastError = 'REPLACED: another venue server publishes to this edge with the same token';
    warn(REPLACED_WARNING);
    return 'replaced';
  }
  if (wasConnected && !closed) link.lastError ??= `CLOSED: the edge closed the connection (code ${code})`;
  if (wasConnected) warn(`disconnected (${link.lastError ?? `code ${code}`}); reconnecting`);
  else if (link.lastError && link.attempt === 0) warn(`cannot connect: ${link.lastError}`);
  return closed ? 'stop' : 'reconnect';
}
