// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): a client closes its WebSocket with a code that may not
// be sent back (999, 1015, 5000). The shard echoed it, workerd threw, and the TCP connection hung
// for ~8 s (a cheap way to hold the edge's connections). Now the edge answers such a code with
// 1002 (protocol error), and echoes a valid one. A raw WebSocket client (the `ws` library will
// not send invalid codes) on real local workerd, for a viewer and for the publisher.
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@jest/globals';
import { edgeForSuite } from './helpers.js';

const suite = edgeForSuite();

/**
 * Open a WebSocket by hand, send a close frame with `code`, and time the edge's answer.
 * @returns {Promise<{ answeredCode: number | null, closedAfterMs: number }>}
 */
function closeWith(path, code, headers = {}) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(suite.edge.url);
    const socket = connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let sentAt = 0;
    let answeredCode = null;
    const timer = setTimeout(() => socket.destroy(), 20_000);
    socket.on('connect', () => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      );
    });
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return reject(new Error(buffer.subarray(0, end).toString()));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        // a masked close frame: FIN + opcode 8, mask bit + length 2, mask, code
        const mask = randomBytes(4);
        const payload = Buffer.from([(code >> 8) & 0xff, code & 0xff]).map((b, i) => b ^ mask[i]);
        sentAt = Date.now();
        socket.write(Buffer.concat([Buffer.from([0x88, 0x82]), mask, payload]));
      }
      // read server frames; a close frame (opcode 8) carries the code
      while (buffer.length >= 2) {
        const len = buffer[1] & 0x7f;
        const head = len === 126 ? 4 : 2;
        const size = len === 126 ? buffer.readUInt16BE(2) : len;
        if (buffer.length < head + size) break;
        if ((buffer[0] & 0x0f) === 8) answeredCode = size >= 2 ? buffer.readUInt16BE(head) : 1005;
        buffer = buffer.subarray(head + size);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answeredCode, closedAfterMs: Date.now() - sentAt });
    });
    socket.on('error', () => {});
  });
}

test('a viewer closing with 999, 1015 or 5000 gets 1002 at once; a valid code is echoed', async () => {
  const results = {};
  for (const code of [999, 1015, 5000, 4000]) results[code] = await closeWith('/ws', code);
  console.log(
    `close codes (viewer): ${Object.entries(results)
      .map(([c, r]) => `${c} → ${r.answeredCode} after ${r.closedAfterMs} ms`)
      .join('; ')}`,
  );
  for (const code of [999, 1015, 5000]) {
    expect(results[code].answeredCode).toBe(1002);
    expect(results[code].closedAfterMs).toBeLessThan(2000);
  }
  expect(results[4000].answeredCode).toBe(4000);
}, 90_000);

test('the publisher closing with 5000 gets 1002 at once', async () => {
  const result = await closeWith('/publish', 5000, { authorization: `Bearer ${suite.edge.token}` });
  console.log(`close codes (publisher): 5000 → ${result.answeredCode} after ${result.closedAfterMs} ms`);
  expect(result.answeredCode).toBe(1002);
  expect(result.closedAfterMs).toBeLessThan(2000);
}, 30_000);
