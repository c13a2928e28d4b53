// What the edge says to the venue's uplink (uplink.js) on the publish socket, and what each
// message does (docs/explanation/edge-design.md#root-srcshowshowjs-class-show): `hello` (where the edge stands; start
// publishing from there), `ack`, `resync` (send a snapshot), `error` (a refused frame), and the
// audience's `votes` and `taps` (core/protocol/publisher.js). Unknown types are ignored so a
// newer edge can say more.

import { EdgeMessage } from '#core/protocol/publisher.js';

/**
 * @typedef {object} UplinkLink the uplink's connection state, shared with this file
 * @property {boolean} connected authenticated and greeted by the edge
 * @property {boolean} everConnected
 * @property {number} attempt reconnect attempts since the last hello
 * @property {string | null} lastError
 * @property {number | null} remoteViewers viewers connected to the edge, as it last reported
 */

/** Most taps one report may carry; more is not a real edge. */
const MAX_TAPS_PER_REPORT = 10_000_000;

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * @param {object} options
 * @param {UplinkLink} options.link
 * @param {ReturnType<typeof import('./publish-cursor.js').createPublishCursor>} options.cursor
 * @param {(aliveMs: unknown) => void} options.startAlive
 * @param {() => void} options.pump bring the edge up to the stream's head
 * @param {() => void} options.notify report the uplink's status
 * @param {string} options.where the edge's publish URL, for the log
 * @param {(message: string) => void} options.info
 * @param {(message: string) => void} options.warn
 * @param {(report: any) => void} options.onVotes
 * @param {(n: number) => void} options.onTaps
 * @returns {(text: string) => void} handles one text frame from the edge
 */
export function createEdgeReplies({ link, cursor, startAlive, pump, notify, where, info, warn, onVotes, onTaps }) {
  /** @type {Record<string, (message: any) => void>} */
  const handlers = {
    [EdgeMessage.HELLO](message) {
      Object.assign(link, { connected: true, everConnected: true, attempt: 0, lastError: null });
      cursor.hello(message.epoch, message.seq);
      startAlive(message.aliveMs);
      const at = cursor.sent();
      info(`connected to ${where} (edge at ${at.epoch ?? 'no state'}${at.seq === null ? '' : `#${at.seq}`})`);
      pump();
      notify();
    },
    [EdgeMessage.ACK](message) {
      cursor.ack(message.epoch ?? null, message.seq);
      if (Number.isFinite(message.viewers)) link.remoteViewers = message.viewers;
      notify();
    },
    [EdgeMessage.RESYNC](message) {
      try {
        if (cursor.resync()) info(`edge asked for a snapshot: ${message.reason ?? 'no reason given'}`);
      } catch (err) {
        link.lastError = `SEND: ${messageOf(err)}`;
      }
    },
    [EdgeMessage.ERROR](message) {
      cursor.refused();
      link.lastError = `${message.code ?? 'ERROR'}: ${message.message ?? ''}`;
      warn(`edge refused a frame: ${link.lastError}`);
      notify();
    },
    [EdgeMessage.TAPS](message) {
      if (Number.isSafeInteger(message.n) && message.n > 0 && message.n <= MAX_TAPS_PER_REPORT) onTaps(message.n);
    },
    // The edge's totals for the open prompt; the vote desk checks the key and the numbers.
    [EdgeMessage.VOTES]: (message) => onVotes(message),
  };

  return (text) => {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      warn('ignored a frame from the edge that is not JSON');
      return;
    }
    const type = message?.type;
    if (typeof type === 'string' && Object.hasOwn(handlers, type)) handlers[type](message);
  };
}
