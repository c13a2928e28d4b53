// A proxy on 127.0.0.1 that understands just enough of WebSocket framing to delete one chosen
// server→client frame from a live connection: the way to force a real seq gap on a real page
// (the server is correct; the network "loses" a message). Everything else passes unchanged.
// The server runs with permessage-deflate off, so frames are plain text and can be dropped whole.

import { startTcpProxy } from '../../support/tcp-proxy.js';

/**
 * @param {object} options
 * @param {number} options.targetPort
 * @param {(message: any) => boolean} options.shouldDrop called with each parsed JSON text frame from the server
 */
export async function startFrameDropProxy({ targetPort, shouldDrop }) {
  const dropped = [];

  const proxy = await startTcpProxy({ targetPort, onPair });

  /**
   * @param {import('node:net').Socket} client
   * @param {import('node:net').Socket} upstream
   */
  function onPair(client, upstream) {
    client.pipe(upstream);
    let buf = Buffer.alloc(0);
    let mode = 'head'; // head → frames (after 101) | raw (plain HTTP)
    upstream.on('data', (chunk) => {
      if (mode === 'raw') return client.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      if (mode === 'head') {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end + 4);
        mode = /^HTTP\/1\.1 101/.test(head.toString('latin1')) ? 'frames' : 'raw';
        client.write(head);
        buf = buf.subarray(end + 4);
        if (mode === 'raw') {
          if (buf.length) client.write(buf);
          buf = Buffer.alloc(0);
          return;
        }
      }
      // Whole frames only; a partial one waits for more bytes. Bounded by the buffer length.
      for (;;) {
        if (buf.length < 2) break;
        const opcode = buf[0] & 0x0f;
        let len = buf[1] & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buf.length < 4) break;
          len = buf.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buf.length < 10) break;
          len = Number(buf.readBigUInt64BE(2));
          offset = 10;
        }
        if (buf.length < offset + len) break;
        const frame = buf.subarray(0, offset + len);
        buf = buf.subarray(offset + len);
        let drop = false;
        if (opcode === 1) {
          try {
            drop = shouldDrop(JSON.parse(frame.subarray(offset).toString('utf8')));
          } catch {
            drop = false;
          }
        }
        if (drop) dropped.push(JSON.parse(frame.subarray(offset).toString('utf8')));
        else client.write(frame);
      }
    });
  }
  return { url: proxy.url, dropped, close: proxy.close };
}
