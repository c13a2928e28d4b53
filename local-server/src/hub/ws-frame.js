// One pre-built, unmasked WebSocket text frame, written as-is to every client socket.
// ws's Sender.frame builds exactly what ws.send would write (permessage-deflate is off).

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
