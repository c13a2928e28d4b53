// Attack (SECURITY.md, "The public edge"): 4 × 100 MiB `POST /vote` were each read whole before
// the 413 (workerd +393 MB; a Cloudflare isolate has 128 MB). Now a declared Content-Length over
// the limit is refused before any of the body is read, and a body without one (chunked) is read
// only up to the limit. Both on /vote (1 KiB) and POST /publish (256 KiB). Measured here as how
// much of a 32 MiB body the client had sent when the answer came. Real local workerd.
import { request } from 'node:http';
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
 * Send up to BODY bytes (chunked, or with a declared Content-Length) and stop at the answer.
 * @returns {Promise<{ status: number, sentWhenAnswered: number }>}
 */
function sendHuge(path, { declared = false, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, edge.url);
    let sent = 0;
    let answered = false;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(declared ? { 'content-length': String(BODY) } : {}), ...headers } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer after ${sent} bytes`));
    }, 60_000);
    req.on('response', (res) => {
      answered = true;
      clearTimeout(timer);
      const sentWhenAnswered = sent;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sentWhenAnswered });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(CHUNK, 0x20);
    const pump = () => {
      while (!answered && sent < BODY) {
        sent += CHUNK;
        if (!req.write(chunk)) return req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const MiB = 1024 * 1024;

test('POST /vote with a 32 MiB body: 413 before it is read, declared or chunked', async () => {
  const chunked = await sendHuge('/vote');
  const declared = await sendHuge('/vote', { declared: true });
  console.log(`oversize /vote: chunked answered ${chunked.status} after ${(chunked.sentWhenAnswered / MiB).toFixed(2)} MiB sent; declared answered ${declared.status} after ${(declared.sentWhenAnswered / MiB).toFixed(2)} MiB`);
  expect(chunked.status).toBe(413);
  expect(declared.status).toBe(413);
  // The answer came long before the client could send the whole body (it would wait for a reader).
  expect(chunked.sentWhenAnswered).toBeLessThan(BODY / 2);
  expect(declared.sentWhenAnswered).toBeLessThan(BODY / 2);
}, 90_000);

test('POST /publish with a 32 MiB body: 413 before it is read, declared or chunked', async () => {
  const auth = { authorization: `Bearer ${edge.token}` };
  const chunked = await sendHuge('/publish', { headers: auth });
  const declared = await sendHuge('/publish', { declared: true, headers: auth });
  console.log(`oversize /publish: chunked answered ${chunked.status} after ${(chunked.sentWhenAnswered / MiB).toFixed(2)} MiB sent; declared answered ${declared.status} after ${(declared.sentWhenAnswered / MiB).toFixed(2)} MiB`);
  expect(chunked.status).toBe(413);
  expect(declared.status).toBe(413);
  expect(chunked.sentWhenAnswered).toBeLessThan(BODY / 2);
  expect(declared.sentWhenAnswered).toBeLessThan(BODY / 2);
}, 90_000);
