// The close handshake (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): a shard or the root answers a viewer's or
// publisher's close frame with a close of its own. RFC 6455 §7.4 lets only some codes go on the
// wire: 1005 and 1006 mean "no code" / "no close frame" and are never sent (answer 1000, as
// partyserver does), and workerd throws for anything else outside 1000–1003, 1007–1014 and
// 3000–4999 (999, 1004, 1015, 5000 …), which left the TCP connection hanging for seconds. A peer
// that sent such a code broke the protocol: it gets 1002 (RFC 6455 §7.4.1, protocol error).

/**
 * @param {number} code the code the peer closed with
 * @returns {number} a code that may be sent back
 */
export function echoCloseCode(code) {
  if (!Number.isInteger(code) || code === 1005 || code === 1006) return 1000;
  if ((code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999)) return code;
  return 1002;
}

/**
 * Finish the close handshake a peer started.
 * @param {WebSocket} ws
 * @param {number} code
 * @param {string} reason
 */
export function answerClose(ws, code, reason) {
  try {
    ws.close(echoCloseCode(code), code === echoCloseCode(code) ? reason : '');
  } catch {
    // the runtime already completed the close handshake
  }
}
