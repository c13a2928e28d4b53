// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): 4 × 100 MiB `POST /vote` were each read whole before
// the 413 (workerd +393 MB; a Cloudflare isolate has 128 MB). Now a declared Content-Length over
// the limit is refused before any of the body is read, and a body without one (chunked) is read
// only up to the limit. Both on /vote (1 KiB) and POST /publish (256 KiB). Real local workerd.
import { connect } from 'node:net';
import { expect, test } from '@jest/globals';
import { edgeForSuite } from './helpers.js';

const BODY = 32 * 1024 * 1024;
/** How long the client waits for the answer, holding the rest of the body. */
const WAIT_MS = 5000;

const suite = edgeForSuite();

/**
 * Start a 32 MiB POST on a raw socket and send only part of it: with `declared`, the headers alone
 * (Content-Length says 32 MiB); chunked, four times the route's limit. Then wait for the answer
 * without sending more. An edge that must read the body to refuse it never answers (the client
 * holds the rest); one that refuses it before reading answers at once. Raw, so that the test sees
 * the status line even if the edge closes the connection while bytes are in flight.
 * @returns {Promise<{ status: number | null, ms: number }>} null: no answer within WAIT_MS
 */
function startOversize(path, limitBytes, { declared = false, headers = {} } = {}) {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(suite.edge.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    const started = Date.now();
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : null, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, WAIT_MS);
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (/^HTTP\/1\.1 \d{3}/.test(received)) finish();
    });
    socket.on('error', () => {}); // a reset once the edge stops reading: the answer came first or not at all
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(
        [
          `POST ${path} HTTP/1.1`,
          `Host: ${hostname}:${port}`,
          'Content-Type: application/json',
          declared ? `Content-Length: ${BODY}` : 'Transfer-Encoding: chunked',
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
          '',
          '',
        ].join('\r\n'),
      );
      if (declared) return;
      const part = 4 * limitBytes;
      socket.write(Buffer.concat([Buffer.from(`${part.toString(16)}\r\n`), Buffer.alloc(part, 0x20), Buffer.from('\r\n')]));
    });
  });
}

const ROUTES = [
  { path: '/vote', limit: 1024, headers: () => ({}) },
  { path: '/publish', limit: 256 * 1024, headers: () => ({ authorization: `Bearer ${suite.edge.token}` }) },
];

test.each(ROUTES)(
  'POST $path with a 32 MiB body: 413 before it is read, declared or chunked (reads ≤ $limit bytes)',
  async ({ path, limit, headers }) => {
    const declared = await startOversize(path, limit, { declared: true, headers: headers() });
    const chunked = await startOversize(path, limit, { headers: headers() });
    console.log(
      `oversize ${path}: declared 32 MiB, headers sent → ${declared.status ?? 'no answer'} after ${declared.ms} ms; chunked, ${4 * limit} bytes sent → ${chunked.status ?? 'no answer'} after ${chunked.ms} ms`,
    );
    expect([declared.status, chunked.status]).toEqual([413, 413]);
  },
  60_000,
);
