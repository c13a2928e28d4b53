// The uplink's WebSocket to the edge's /publish (uplink.js): how it is opened (the publish token
// as a bearer header, no compression, a bounded handshake and frame size), reopened with backoff
// after a close, how its errors read in the status, and how it is closed on shutdown without
// waiting forever for a dead peer. What a close means (replaced, lost) is the uplink's call.

import WebSocket from 'ws';
import { backoffDelay } from '#core/util/backoff.js';

const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The edge's frames (hello, acks, vote totals) are small; a 1 MiB one is not the edge. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** How long a closing handshake may take before the socket is terminated. */
const CLOSE_TIMEOUT_MS = 2000;
const BACKOFF_BASE_MS = 250;
// One publisher per show: retrying every second at most costs the edge nothing, and a venue link
// that comes back must be noticed within the 2 s the remote audience may drift.
const BACKOFF_CAP_MS = 1000;

/** @param {unknown} err */
export const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * Open the publish socket; text frames go to `onText`. Throws when the URL cannot be used.
 * @param {string} url the edge's publish endpoint (edge-url.js)
 * @param {string} token the edge's PUBLISH_TOKEN
 * @param {(text: string) => void} onText
 * @returns {WebSocket}
 */
export function openPublisherSocket(url, token, onText) {
  const socket = new WebSocket(url, {
    headers: { authorization: `Bearer ${token}` },
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    maxPayload: MAX_PAYLOAD_BYTES,
    perMessageDeflate: false,
  });
  socket.on('message', (data, isBinary) => {
    if (!isBinary) onText(String(data));
  });
  return socket;
}

/**
 * The status line for a socket error: a refused token says so, anything else is a CONNECT error.
 * @param {unknown} err
 */
export function connectErrorOf(err) {
  const text = messageOf(err);
  const code = /Unexpected server response: (\d+)/.exec(text)?.[1];
  return code === '401' ? 'UNAUTHORIZED: the edge refused the token (check --edge-token)' : `CONNECT: ${text}`;
}

/**
 * Close the socket normally; terminate it if the edge does not complete the close in time.
 * @param {WebSocket | null} socket
 * @returns {Promise<void>}
 */
export function closePublisherSocket(socket) {
  if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => socket.terminate(), CLOSE_TIMEOUT_MS);
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
}

/**
 * The uplink's one current socket, reopened with backoff when asked.
 * @param {object} options
 * @param {string} options.url the edge's publish endpoint
 * @param {string} options.token
 * @param {import('./edge-replies.js').UplinkLink} options.link attempt, everConnected and lastError are kept here
 * @param {(text: string) => void} options.onText a text frame from the edge
 * @param {(socket: WebSocket) => void} options.onOpen a socket was created (not yet connected)
 * @param {(code: number) => void} options.onClosed the current socket closed
 */
export function createPublisherConnection({ url, token, link, onText, onOpen, onClosed }) {
  /** @type {WebSocket | null} */
  let ws = null;
  let stopped = false;
  let reconnects = 0;
  /** @type {NodeJS.Timeout | null} */
  let reconnectTimer = null;

  function connect() {
    if (stopped) return;
    let socket;
    try {
      socket = openPublisherSocket(url, token, onText);
    } catch (err) {
      link.lastError = `CONNECT: ${messageOf(err)}`;
      reconnectLater();
      return;
    }
    ws = socket;
    onOpen(socket);
    socket.on('error', (err) => {
      link.lastError = connectErrorOf(err);
    });
    socket.on('close', (code) => {
      if (ws !== socket) return; // an older socket; the current one has its own handler
      ws = null;
      onClosed(code);
    });
  }

  function reconnectLater() {
    if (stopped || reconnectTimer) return;
    // Equal jitter, so a venue's restarts do not reconnect in lockstep.
    const delay = backoffDelay(link.attempt, { baseMs: BACKOFF_BASE_MS, capMs: BACKOFF_CAP_MS });
    link.attempt = Math.min(link.attempt + 1, 16);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (link.everConnected) reconnects += 1;
      connect();
    }, delay);
    reconnectTimer.unref?.();
  }

  return {
    connect,
    reconnectLater,
    /** The open socket, or null. */
    current: () => ws,
    /** Reconnections after the first successful one. */
    reconnects: () => reconnects,
    /** Close for good (no reconnect). */
    close() {
      stopped = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const socket = ws;
      ws = null;
      return closePublisherSocket(socket);
    },
  };
}
