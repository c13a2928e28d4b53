// Attack (SECURITY.md, "The public edge"): 4 × 100 MiB `POST /vote` were each read whole before
// the 413 (workerd +393 MB; a Cloudflare isolate has 128 MB). Now a declared Content-Length over
// the limit is refused before any of the body is read, and a body without one (chunked) is read
// only up to the limit. Both on /vote (1 KiB) and POST /publish (256 KiB). Measured here as how
// much of a 32 MiB body the client had sent when the answer came. Real local workerd.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startEdge } from './helpers.js';

const BODY = 32 * 1024 * 1024;
const CHUNK = 64 * 1024;

let edge;

beforeAll(async () => {
  edge = await startEdge({ direct: true });
}, 60_000);

afterAll(async () => {
  await edge?.stop();
});

/**
 * Send up to BODY bytes (chunked, or with a declared Content-Length) on a raw socket and stop at
 * the answer. Raw, because the edge may close the connection while the client is still writing
 * (that is the point): a write error must not hide the status line it already sent.
 * @returns {Promise<{ status: number, sentWhenAnswered: number }>}
 */
function sendHuge(path, { declared = false, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(edge.url);
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let received = '';
    let answeredAt = null;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer after ${sent} bytes`));
    }, 60_000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, sentWhenAnswered: answeredAt ?? sent });
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (answeredAt === null && /^HTTP\/1\.1 \d{3}/.test(received)) {
        answeredAt = sent;
        // the status line is all this needs; wait a moment for the rest, then stop
        setTimeout(finish, 200);
      }
    });
    socket.on('error', () => {}); // EPIPE/ECONNRESET once the edge stops reading: expected
    socket.on('close', finish);
    socket.on('connect', () => {
      const head = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json',
        declared ? `Content-Length: ${BODY}` : 'Transfer-Encoding: chunked',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
      socket.write(head);
      const chunk = Buffer.alloc(CHUNK, 0x20);
      const framed = declared ? chunk : Buffer.concat([Buffer.from(`${CHUNK.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      const pump = () => {
        while (answeredAt === null && sent < BODY && !socket.destroyed) {
          sent += CHUNK;
          if (!socket.write(framed)) return socket.once('drain', pump);
        }
        if (answeredAt === null && !declared && !socket.destroyed) socket.write('0\r\n\r\n');
      };
      pump();
    });
  });
}

const MiB = 1024 * 1024;

const ROUTES = [
  { path: '/vote', limit: '1 KiB', headers: () => ({}) },
  { path: '/publish', limit: '256 KiB', headers: () => ({ authorization: `Bearer ${edge.token}` }) },
];

test.each(ROUTES)('POST $path with a 32 MiB body: 413 before it is read, declared or chunked (reads ≤ $limit)', async ({ path, headers }) => {
  const chunked = await sendHuge(path, { headers: headers() });
  const declared = await sendHuge(path, { declared: true, headers: headers() });
  console.log(`oversize ${path}: chunked answered ${chunked.status} after ${(chunked.sentWhenAnswered / MiB).toFixed(2)} MiB sent; declared answered ${declared.status} after ${(declared.sentWhenAnswered / MiB).toFixed(2)} MiB`);
  expect([chunked.status, declared.status]).toEqual([413, 413]);
  // The answer came long before the client could send the whole body (it would wait for a reader).
  expect(chunked.sentWhenAnswered).toBeLessThan(BODY / 2);
  expect(declared.sentWhenAnswered).toBeLessThan(BODY / 2);
}, 90_000);
