// One pre-built, unmasked WebSocket text frame, written as-is to every client socket.
// ws's Sender.frame builds exactly what ws.send would write (permessage-deflate is off). All
// access to ws internals is here.

import { deflateRawSync, constants as zlibConstants } from 'node:zlib';
import * as wsModule from 'ws';

// Sender is exported by ws at run time but missing from @types/ws.
const { Sender } = /** @type {any} */ (wsModule);

/**
 * @param {string} text
 * @returns {Buffer} a complete server-to-client text frame
 */
export function encodeTextFrame(text) {
  const payload = Buffer.from(text);
  const parts = Sender.frame(payload, { fin: true, rsv1: false, opcode: 0x01, mask: false, readOnly: true });
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * The same text frame compressed with permessage-deflate (RFC 7692) without context takeover:
 * each message is compressed on its own, so one buffer serves every client that negotiated the
 * extension (docs/reference/audience-protocol.md#endpoints).
 * @param {string} text
 * @returns {Buffer}
 */
export function encodeDeflatedTextFrame(text) {
  const deflated = deflateRawSync(Buffer.from(text), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  // RFC 7692 §7.2.1: drop the 00 00 ff ff tail of the sync flush.
  const payload = deflated.subarray(0, deflated.length - 4);
  const parts = Sender.frame(payload, { fin: true, rsv1: true, opcode: 0x01, mask: false, readOnly: true });
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * Below this many bytes a lean frame goes out uncompressed: RFC 7692 lets every message choose
 * (RSV1 clear = not compressed) and ws's own default threshold is the same 1 KiB. Inflating a
 * small frame costs each phone more than the few bytes it saves (a pause, a vote's counts).
 */
export const DEFLATE_THRESHOLD_BYTES = 1024;

/**
 * A frame for clients that negotiated permessage-deflate (docs/reference/audience-protocol.md#endpoints): compressed
 * once for all of them when the text is at least DEFLATE_THRESHOLD_BYTES, plain below that.
 * @param {string} text
 * @returns {Buffer}
 */
export function encodeLeanFrame(text) {
  return Buffer.byteLength(text) < DEFLATE_THRESHOLD_BYTES ? encodeTextFrame(text) : encodeDeflatedTextFrame(text);
}

/**
 * The raw TCP socket under a ws WebSocket (ws keeps it in `_socket`) and whether the client
 * negotiated permessage-deflate (`_extensions`): the hub writes pre-built frames to the former.
 * Every reach into ws's internals lives in this file.
 * @param {import('ws').WebSocket} ws
 * @returns {{ socket: import('node:net').Socket, deflate: boolean }}
 */
export function rawSocketOf(ws) {
  const internals = /** @type {any} */ (ws);
  return { socket: internals._socket, deflate: Boolean(internals._extensions?.['permessage-deflate']) };
}

/**
 * Let go of what the upgrade's HTTP exchange left on a viewer's socket for the whole show
 * (issue 27, memory per viewer): @fastify/websocket's `error` listener closes over the Fastify
 * request and reply, and the ServerResponse it assigned to the TCP socket (`_httpMessage`) holds
 * the raw request with its headers. Removes that listener (the caller must add its own `error`
 * listener) and detaches the response: about 2.7 KB of heap per viewer
 * (test/local-server/hub/ws-memory.test.js).
 * @param {import('ws').WebSocket} ws
 */
export function releaseUpgradeState(ws) {
  ws.removeAllListeners('error');
  const socket = /** @type {any} */ (ws)._socket;
  const response = socket?._httpMessage;
  if (response && typeof response.detachSocket === 'function') response.detachSocket(socket);
}
