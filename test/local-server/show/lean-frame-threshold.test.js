// The lean stream's WebSocket frames (docs/reference/audience-protocol.md#endpoints): compressed once for every viewer
// that negotiated permessage-deflate when the envelope is at least 1 KiB, sent plain (RSV1 clear,
// which RFC 7692 allows per message) below that, so no phone spends an inflation on a pause or a
// vote's counts. Both kinds reach a real ws client that negotiated the extension intact.
import { inflateRawSync, constants as zlibConstants } from 'node:zlib';
import { WebSocketServer, WebSocket } from 'ws';
import { ENCODERS } from '../../../local-server/src/hub/sink-writer.js';
import { DEFLATE_THRESHOLD_BYTES, rawSocketOf } from '../../../local-server/src/hub/ws-frame.js';

/** RSV1 and the payload of one unmasked server frame (7- or 16-bit length). */
function readFrame(bytes) {
  const rsv1 = (bytes[0] & 0x40) !== 0;
  let length = bytes[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    length = bytes.readUInt16BE(2);
    offset = 4;
  }
  const payload = bytes.subarray(offset, offset + length);
  const text = rsv1
    ? inflateRawSync(Buffer.concat([payload, Buffer.from([0, 0, 0xff, 0xff])]), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString()
    : payload.toString();
  return { rsv1, text };
}

const envelopeOf = (size) => JSON.stringify({ v: 1, type: 'delta', epoch: 'e~lean', seq: 1, t: 1, data: { pad: 'x'.repeat(size) } });

test('a lean envelope under 1 KiB goes out plain, one of 1 KiB or more compressed', () => {
  const small = envelopeOf(500);
  const big = envelopeOf(4000);
  expect(Buffer.byteLength(small)).toBeLessThan(DEFLATE_THRESHOLD_BYTES);
  expect(readFrame(ENCODERS.wsz(1, small))).toEqual({ rsv1: false, text: small });
  const bigFrame = ENCODERS.wsz(1, big);
  expect(readFrame(bigFrame)).toEqual({ rsv1: true, text: big });
  expect(bigFrame.length).toBeLessThan(Buffer.byteLength(big) / 4);
  // Right at the threshold it is compressed.
  const edge = envelopeOf(DEFLATE_THRESHOLD_BYTES - envelopeOf(0).length);
  expect(Buffer.byteLength(edge)).toBe(DEFLATE_THRESHOLD_BYTES);
  expect(readFrame(ENCODERS.wsz(1, edge)).rsv1).toBe(true);
});

test('a client that negotiated permessage-deflate reads both kinds, written raw as the hub does', async () => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: { threshold: 0 } });
  await new Promise((resolve) => wss.once('listening', resolve));
  const port = /** @type {import('node:net').AddressInfo} */ (wss.address()).port;
  const serverSide = new Promise((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const received = [];
  const both = new Promise((resolve) =>
    client.on('message', (data) => {
      received.push(data.toString());
      if (received.length === 2) resolve(undefined);
    }),
  );
  try {
    const socket = /** @type {WebSocket} */ (await serverSide);
    await new Promise((resolve) => client.once('open', resolve));
    const raw = rawSocketOf(socket);
    expect(raw.deflate).toBe(true);
    const small = envelopeOf(300);
    const big = envelopeOf(3000);
    raw.socket.write(ENCODERS.wsz(1, small));
    raw.socket.write(ENCODERS.wsz(2, big));
    await both;
    expect(received).toEqual([small, big]);
  } finally {
    client.close();
    await new Promise((resolve) => wss.close(resolve));
  }
});
