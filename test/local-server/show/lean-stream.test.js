// `?stream=lean` on /ws, /sse and /poll (docs/README.md): the lean stream has its own epoch id and seq
// space, is negotiated with permessage-deflate on /ws (and only there), and bad values are refused.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { inflateRawSync, constants as zlibConstants } from 'node:zlib';
import { WebSocket } from 'ws';
import { startShowServer } from '../../../local-server/src/server.js';
import { createTracker, openSse, getJson, waitFor, wsUrl } from '../../support/clients.js';
import { jsonEqual } from '#core/protocol/merge-patch.js';
import { LEAN_EPOCH_SUFFIX } from '#core/stream/lean-state.js';

let server;
const token = 'test-token-lean';
beforeAll(async () => {
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token, autoplay: true });
});
afterAll(() => server.close());

/** A viewer with the ws library's default options (it offers permessage-deflate, like browsers). */
async function openViewer(query) {
  const ws = new WebSocket(`${wsUrl(server.audienceUrl)}${query}`);
  const tracker = createTracker();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.v === 1) tracker.accept(msg);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, tracker };
}

const badInputs = async () => {
  const text = await (await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  return Number(/tutti_bad_input_total\{source="query"\} (\d+)/.exec(text)?.[1] ?? 0);
};

test('WebSocket lean: compressed, own epoch and seq space, no per-beat position, same state as the server', async () => {
  const lean = await openViewer('?stream=lean');
  const full = await openViewer('');
  expect(lean.ws.extensions).toMatch(/permessage-deflate/);
  expect(full.ws.extensions).toBe(''); // the full stream keeps no zlib state per socket
  await waitFor(() => lean.tracker.state && full.tracker.envelopes.length >= 3, 5000, 'both streams');
  const leanSeqBefore = server.show.leanStream.seq();
  // Operator actions move the lean stream; beats alone (within a 15 s chunk) do not.
  server.show.engine.seek(5);
  server.show.engine.setTempo(120);
  // The action first, its look-ahead (`ahead`, without `position`) a moment later (docs/README.md).
  await waitFor(
    () =>
      lean.tracker.seq >= server.show.leanStream.seq() &&
      server.show.leanStream.seq() > leanSeqBefore &&
      typeof lean.tracker.state?.ahead === 'object',
    5000,
    'lean deltas and the look-ahead',
  );
  expect(lean.tracker.gaps).toBe(0);
  expect(lean.tracker.epoch).toBe(`${server.show.stream.epoch()}${LEAN_EPOCH_SUFFIX}`);
  expect(jsonEqual(lean.tracker.state, server.show.leanStream.state())).toBe(true);
  expect(lean.tracker.state.position).toBeUndefined();
  expect(lean.tracker.state.segment).toMatchObject({ bar: 5, bpm: 120 });
  expect(full.tracker.state.position).toBeDefined();
  expect(full.tracker.state.segment).toMatchObject({ bpm: 120 });
  lean.ws.close();
  full.ws.close();
});

test('SSE and poll lean resume in the lean seq space', async () => {
  const first = await getJson(`${server.audienceUrl}/poll?stream=lean`);
  expect(first.status).toBe(200);
  const snap = first.body[0];
  expect(snap).toMatchObject({ type: 'snapshot', epoch: server.show.leanStream.epoch() });
  server.show.engine.seek(9);
  const next = await getJson(`${server.audienceUrl}/poll?stream=lean&since=${snap.seq}&epoch=${encodeURIComponent(snap.epoch)}`);
  expect(next.body[0]).toMatchObject({ type: 'delta', seq: snap.seq + 1 });
  const sse = await openSse(server.audienceUrl, { query: `?stream=lean&since=${snap.seq}&epoch=${encodeURIComponent(snap.epoch)}` });
  await waitFor(() => sse.ids.length >= 1, 5000, 'sse event');
  expect(sse.ids[0]).toBe(snap.seq + 1);
  sse.close();
  // The full stream's epoch is a foreign epoch to the lean stream: it starts with a snapshot.
  const foreign = await getJson(`${server.audienceUrl}/poll?stream=lean&since=1&epoch=${encodeURIComponent(server.show.stream.epoch())}`);
  expect(foreign.body[0].type).toBe('snapshot');
});

test('an unknown stream is refused with 400 on every transport and counted as bad input', async () => {
  const before = await badInputs();
  expect((await getJson(`${server.audienceUrl}/poll?stream=fat`)).status).toBe(400);
  expect((await fetch(`${server.audienceUrl}/sse?stream=fat`)).status).toBe(400);
  await expect(openViewer('?stream=fat')).rejects.toThrow('HTTP 400');
  expect(await badInputs()).toBe(before + 3);
});

test('on the lean stream a small compressed frame that inflates past 4 KiB closes with 1009', async () => {
  const ws = new WebSocket(`${wsUrl(server.audienceUrl)}?stream=lean`, { perMessageDeflate: { threshold: 0 } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  expect(ws.extensions).toMatch(/permessage-deflate/);
  const closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('error', () => {});
  ws.send(JSON.stringify({ type: 'ping', id: 1, c: 1, pad: 'a'.repeat(100_000) })); // ~200 bytes compressed
  expect(await closed).toBe(1009);
});

/**
 * A raw upgrade offering `permessage-deflate` with no parameters, as Firefox sends it (ws, Chromium
 * and WebKit add `client_max_window_bits`). Resolves with the status line, the headers and the
 * bytes after them.
 */
function rawUpgrade(path, extensions) {
  const { port } = new URL(server.audienceUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error('no upgrade answer within 5 s')), 5000);
    function finish(err) {
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      const end = buf.indexOf('\r\n\r\n');
      const [status, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status, headers, rest: buf.subarray(end + 4) });
    }
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!buf.subarray(0, 12).toString().includes('101')) return finish();
      // Upgraded: wait for the first whole server frame (the lean snapshot).
      const frame = buf.subarray(end + 4);
      if (frame.length >= 2) {
        const len7 = frame[1] & 0x7f;
        const header = len7 === 126 ? 4 : len7 === 127 ? 10 : 2;
        const len = len7 === 126 ? frame.readUInt16BE(2) : len7 === 127 ? Number(frame.readBigUInt64BE(2)) : len7;
        if (frame.length >= header + len) finish();
      }
    });
    socket.on('error', finish);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: ${extensions}\r\n\r\n`,
    );
  });
}

/** The first server frame after an upgrade: RSV1 (compressed) and its text, inflated when compressed. */
function firstFrame(bytes) {
  const len7 = bytes[1] & 0x7f;
  const header = len7 === 126 ? 4 : len7 === 127 ? 10 : 2;
  const len = len7 === 126 ? bytes.readUInt16BE(2) : len7 === 127 ? Number(bytes.readBigUInt64BE(2)) : len7;
  const payload = bytes.subarray(header, header + len);
  const compressed = (bytes[0] & 0x40) !== 0;
  const text = compressed
    ? inflateRawSync(Buffer.concat([payload, Buffer.from([0, 0, 0xff, 0xff])]), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString()
    : payload.toString();
  return { compressed, wireBytes: len, text };
}

test("Firefox's bare permessage-deflate offer (no client_max_window_bits) is accepted on the lean stream, and its frames are compressed", async () => {
  // A snapshot with its look-ahead (the last test's seek sends it a moment after the seek itself):
  // big enough to be compressed (DEFLATE_THRESHOLD_BYTES).
  await waitFor(() => typeof server.show.leanStream.state().ahead === 'object', 5000, 'the look-ahead');
  const { status, headers, rest } = await rawUpgrade('/ws?stream=lean', 'permessage-deflate');
  expect(status).toMatch(/^HTTP\/1\.1 101/);
  expect(headers['sec-websocket-extensions']).toMatch(/^permessage-deflate/);
  // A server may only answer with client_max_window_bits when the client offered it (RFC 7692 §7.1.2.2).
  expect(headers['sec-websocket-extensions']).not.toMatch(/client_max_window_bits/);
  const frame = firstFrame(rest);
  expect(frame.compressed).toBe(true);
  const msg = JSON.parse(frame.text);
  expect(msg).toMatchObject({ type: 'snapshot', epoch: server.show.leanStream.epoch() });
  expect(frame.wireBytes).toBeLessThan(frame.text.length * 0.7); // and it still compresses well
});
