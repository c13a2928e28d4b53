// The venue server's side of the edge mirror (`tutti serve --edge URL --edge-token T`): one
// authenticated WebSocket to the edge's /publish. It never queues: on (re)connect the edge's
// hello says where it stands and the uplink sends exactly the deltas it missed from the state
// stream's replay window, or a snapshot, so memory stays bounded while the edge is away and the
// remote state always converges.

import WebSocket from 'ws';
import { backoffDelay } from '#core/util/backoff.js';
import { edgePublishUrl } from './edge-url.js';
import { createPublishCursor } from './publish-cursor.js';

const BACKOFF_BASE_MS = 250;
// One publisher per show: retrying every second at most costs the edge nothing, and a venue link
// that comes back must be noticed within the 2 s the remote audience may drift.
const BACKOFF_CAP_MS = 1000;
/** Above this much unsent data the uplink stops writing; the next check catches up (deltas or a snapshot). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How often the uplink compares the stream with what the edge has, whatever publish() was told. */
const CHECK_INTERVAL_MS = 1000;
const HEARTBEAT_MS = 15_000;
const HANDSHAKE_TIMEOUT_MS = 10_000;
/**
 * The edge closes a publisher with this code when a newer one connects with the same token
 * (edge-worker/README.md, "Root"). Reconnecting would replace the other venue in turn, and the
 * two would take the show from each other several times a second: stop until the operator says.
 */
export const REPLACED_CLOSE_CODE = 4001;
/**
 * Sign of life for the edge, when its hello asks for one (`aliveMs`): without it the edge marks
 * the venue lost after VENUE_LOST_MS of silence (edge-worker/README.md, "Venue status"). The edge
 * answers it from the runtime without waking the show object; the answer is ignored here.
 */
const ALIVE_FRAME = '{"type":"alive"}';

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

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * @param {object} options
 * @param {string} options.url the edge's base URL
 * @param {string} options.token the edge's PUBLISH_TOKEN
 * @param {UplinkStream} options.stream
 * @param {{ info?: (...args: any[]) => void, warn?: (...args: any[]) => void }} [options.log]
 * @param {(status: UplinkStatus) => void} [options.onStatus] called on connect, disconnect, errors and acks
 * @param {(report: { key: string, counts: number[], total: number, final?: boolean }) => void} [options.onVotes] the edge's vote totals (README.md, "Audience voices")
 * @param {(n: number) => void} [options.onTaps] reaction taps the edge's viewers sent since its last report
 * @returns {EdgeUplink}
 */
export function createEdgeUplink({ url, token, stream, log = {}, onStatus = () => {}, onVotes = () => {}, onTaps = () => {} }) {
  const info = (/** @type {string} */ message) => log.info?.(`edge: ${message}`);
  const warn = (/** @type {string} */ message) => log.warn?.(`edge: ${message}`);
  const target = edgePublishUrl(url);

  /** @type {WebSocket | null} */
  let ws = null;
  let connected = false;
  let closed = false;
  /** @type {number | null} set when the edge replaced us; nothing reconnects until resume() */
  let replacedAt = null;
  let attempt = 0;
  let reconnects = 0;
  let everConnected = false;
  /** @type {string | null} */
  let lastError = null;
  /** @type {number | null} */
  let remoteViewers = null;
  let alive = true;
  /** @type {NodeJS.Timeout | null} */
  let reconnectTimer = null;
  /** @type {NodeJS.Timeout | null} */
  let aliveTimer = null;

  /** @param {unknown} everyMs the hello's aliveMs (absent on older edges) */
  function startAlive(everyMs) {
    stopAlive();
    const ms = Number(everyMs);
    if (!Number.isFinite(ms) || ms < 100) return;
    aliveTimer = setInterval(() => {
      try {
        send(ALIVE_FRAME);
      } catch {
        // the close handler reconnects
      }
    }, ms);
    aliveTimer.unref?.();
  }

  function stopAlive() {
    if (aliveTimer) clearInterval(aliveTimer);
    aliveTimer = null;
  }

  function status() {
    /** @type {UplinkStatus['state']} */
    const state = closed ? 'closed' : replacedAt !== null ? 'replaced' : connected ? 'connected' : 'connecting';
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
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(text);
    return true;
  }

  const cursor = createPublishCursor({ stream, send });

  // Bring the edge up to the stream's head (publish-cursor.js). Called on hello, on publish() and
  // by the periodic check; never while the socket is not open or has a backlog.
  function pump() {
    if (!connected || !ws || ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
    cursor.pump();
  }

  function safePump() {
    try {
      pump();
    } catch (err) {
      lastError = `SEND: ${messageOf(err)}`;
      warn(`could not send to the edge: ${messageOf(err)}`);
    }
  }

  /** @param {string} text */
  function onMessage(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      warn('ignored a frame from the edge that is not JSON');
      return;
    }
    switch (message?.type) {
      case 'hello':
        connected = true;
        everConnected = true;
        attempt = 0;
        lastError = null;
        cursor.hello(message.epoch, message.seq);
        startAlive(message.aliveMs);
        {
          const at = cursor.sent();
          info(`connected to ${target.url ?? url} (edge at ${at.epoch ?? 'no state'}${at.seq === null ? '' : `#${at.seq}`})`);
        }
        safePump();
        notify();
        return;
      case 'ack':
        cursor.ack(message.epoch ?? null, message.seq);
        if (Number.isFinite(message.viewers)) remoteViewers = message.viewers;
        notify();
        return;
      case 'resync':
        try {
          if (cursor.resync()) info(`edge asked for a snapshot: ${message.reason ?? 'no reason given'}`);
        } catch (err) {
          lastError = `SEND: ${messageOf(err)}`;
        }
        return;
      case 'error':
        cursor.refused();
        lastError = `${message.code ?? 'ERROR'}: ${message.message ?? ''}`;
        warn(`edge refused a frame: ${lastError}`);
        notify();
        return;
      case 'taps':
        if (Number.isSafeInteger(message.n) && message.n > 0 && message.n <= 10_000_000) onTaps(message.n);
        return;
      case 'votes':
        // The edge's totals for the open prompt; the vote desk checks the key and the numbers.
        onVotes(message);
        return;
      default:
        // Newer edges may send more; ignore what we do not know.
    }
  }

  function scheduleReconnect() {
    if (closed || replacedAt !== null || reconnectTimer) return;
    // Equal jitter, so a venue's restarts do not reconnect in lockstep.
    const delay = backoffDelay(attempt, { baseMs: BACKOFF_BASE_MS, capMs: BACKOFF_CAP_MS });
    attempt = Math.min(attempt + 1, 16);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (everConnected) reconnects += 1;
      connect();
    }, delay);
    reconnectTimer.unref?.();
  }

  function connect() {
    if (closed || !target.url) return;
    let socket;
    try {
      socket = new WebSocket(target.url, {
        headers: { authorization: `Bearer ${token}` },
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
        maxPayload: 1024 * 1024,
        perMessageDeflate: false,
      });
    } catch (err) {
      lastError = `CONNECT: ${messageOf(err)}`;
      scheduleReconnect();
      return;
    }
    ws = socket;
    alive = true;
    socket.on('message', (data, isBinary) => {
      if (!isBinary) onMessage(String(data));
    });
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('error', (err) => {
      const text = messageOf(err);
      const code = /Unexpected server response: (\d+)/.exec(text)?.[1];
      lastError = code === '401' ? 'UNAUTHORIZED: the edge refused the token (check --edge-token)' : `CONNECT: ${text}`;
    });
    socket.on('close', (code) => {
      if (ws !== socket) return; // an older socket; the current one has its own handler
      ws = null;
      stopAlive();
      const wasConnected = connected;
      connected = false;
      if (code === REPLACED_CLOSE_CODE && !closed) {
        replacedAt = Date.now();
        lastError = 'REPLACED: another venue server publishes to this edge with the same token';
        warn(
          '!!! REPLACED: another venue server connected to this edge with the same publish token. ' +
            'This one has STOPPED publishing so the two do not take the show from each other. ' +
            'Stop the other one, then resume with the console\'s edge switch or POST /api/edge/resume.',
        );
        notify();
        return;
      }
      if (wasConnected && !closed) lastError ??= `CLOSED: the edge closed the connection (code ${code})`;
      if (wasConnected) warn(`disconnected (${lastError ?? `code ${code}`}); reconnecting`);
      else if (lastError && attempt === 0) warn(`cannot connect: ${lastError}`);
      notify();
      scheduleReconnect();
    });
  }

  const checkTimer = setInterval(safePump, CHECK_INTERVAL_MS);
  checkTimer.unref?.();
  const heartbeatTimer = setInterval(() => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (!alive) {
      lastError = 'TIMEOUT: the edge stopped answering pings';
      ws.terminate();
      return;
    }
    alive = false;
    try {
      ws.ping();
    } catch {
      // the close handler reconnects
    }
  }, HEARTBEAT_MS);
  heartbeatTimer.unref?.();

  if (target.url) connect();
  else {
    lastError = `BAD_URL: ${target.reason}`;
    warn(target.reason);
  }

  return {
    publish() {
      safePump();
    },
    status,
    resume() {
      if (closed || replacedAt === null) return false;
      replacedAt = null;
      lastError = null;
      attempt = 0;
      info('resuming: publishing to the edge again (the other venue server will be replaced)');
      connect();
      notify();
      return true;
    },
    close() {
      closed = true;
      clearInterval(checkTimer);
      clearInterval(heartbeatTimer);
      stopAlive();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const socket = ws;
      ws = null;
      connected = false;
      if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        const force = setTimeout(() => socket.terminate(), 2000);
        socket.once('close', () => {
          clearTimeout(force);
          resolve();
        });
        try {
          socket.close(1000, 'publisher closing');
        } catch {
          socket.terminate();
        }
      });
    },
  };
}
