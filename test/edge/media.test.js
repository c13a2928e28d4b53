// Score media on the edge (real workerd): the publisher uploads with its token, viewers read
// /media/<src> with the same caching headers as the venue (ETag, 304, Range), and bad uploads
// get a 4xx JSON answer while the worker keeps serving.

import { createHash, randomBytes } from 'node:crypto';
import { startEdge } from './helpers.js';

const FILE_LIMIT = 3 * 1024 * 1024; // over one 1 MiB chunk, so chunking is exercised
const TOTAL_LIMIT = 5 * 1024 * 1024;

let edge;

beforeAll(async () => {
  edge = await startEdge({ vars: { MEDIA_MAX_FILE_BYTES: FILE_LIMIT, MEDIA_MAX_TOTAL_BYTES: TOTAL_LIMIT } });
});

afterAll(async () => {
  await edge?.stop();
});

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const encodePath = (src) => src.split('/').map(encodeURIComponent).join('/');

/** PUT /publish/media/<src> */
function upload(src, body, { token = edge.token, headers = {} } = {}) {
  return fetch(`${edge.url}/publish/media/${encodePath(src)}`, {
    method: 'PUT',
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    body,
  });
}

async function list() {
  const res = await fetch(`${edge.url}/publish/media`, { headers: { authorization: `Bearer ${edge.token}` } });
  expect(res.status).toBe(200);
  return res.json();
}

test('uploads and the list need the publish token', async () => {
  const bytes = randomBytes(100);
  for (const token of [null, 'wrong-token', '']) {
    const res = await upload('media/secret.png', bytes, { token });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('UNAUTHORIZED');
  }
  const listed = await fetch(`${edge.url}/publish/media`);
  expect(listed.status).toBe(401);
  const removed = await fetch(`${edge.url}/publish/media/media/secret.png`, {
    method: 'DELETE',
    headers: { authorization: 'Bearer nope' },
  });
  expect(removed.status).toBe(401);
  expect((await fetch(`${edge.url}/media/media/secret.png`)).status).toBe(404);
});

test('an uploaded file comes back byte for byte, with its type, ETag, 304 and ranges', async () => {
  const bytes = randomBytes(2 * 1024 * 1024 + 12_345); // three chunk rows
  const src = 'media/test dir/swell.wav';
  const put = await upload(src, bytes, { headers: { 'x-content-sha256': sha(bytes) } });
  expect(put.status).toBe(201);
  expect(await put.json()).toMatchObject({ src, size: bytes.length, sha256: sha(bytes), type: 'audio/wav' });

  const res = await fetch(`${edge.url}/media/${encodePath(src)}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('audio/wav');
  expect(res.headers.get('etag')).toBe(`"${sha(bytes)}"`);
  expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  expect(res.headers.get('accept-ranges')).toBe('bytes');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.length).toBe(bytes.length);
  expect(body.equals(bytes)).toBe(true);

  const again = await fetch(`${edge.url}/media/${encodePath(src)}`, { headers: { 'if-none-match': `"${sha(bytes)}"` } });
  expect(again.status).toBe(304);
  expect((await again.arrayBuffer()).byteLength).toBe(0);

  // A range across the boundary between the first and second chunk rows.
  const start = 1024 * 1024 - 10;
  const end = 1024 * 1024 + 9;
  const part = await fetch(`${edge.url}/media/${encodePath(src)}`, { headers: { range: `bytes=${start}-${end}` } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
  expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
  const tail = await fetch(`${edge.url}/media/${encodePath(src)}`, { headers: { range: 'bytes=-100' } });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 100))).toBe(true);
  const beyond = await fetch(`${edge.url}/media/${encodePath(src)}`, { headers: { range: `bytes=${bytes.length}-` } });
  expect(beyond.status).toBe(416);
  expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  await beyond.arrayBuffer();

  const listed = await list();
  expect(listed.files).toContainEqual({ src, size: bytes.length, sha256: sha(bytes), type: 'audio/wav' });
  expect(listed.limits).toMatchObject({ fileBytes: FILE_LIMIT, totalBytes: TOTAL_LIMIT });

  // Replacing the file serves the new bytes under a new ETag; deleting it makes it a 404.
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
  expect((await upload('media/lines.svg', svg)).status).toBe(201);
  const replaced = randomBytes(500);
  expect((await upload(src, replaced)).status).toBe(200);
  const fresh = await fetch(`${edge.url}/media/${encodePath(src)}`, { headers: { 'if-none-match': `"${sha(bytes)}"` } });
  expect(fresh.status).toBe(200);
  expect(Buffer.from(await fresh.arrayBuffer()).equals(replaced)).toBe(true);
  const image = await fetch(`${edge.url}/media/media/lines.svg`);
  expect(image.headers.get('content-type')).toBe('image/svg+xml');
  expect(Buffer.from(await image.arrayBuffer()).equals(svg)).toBe(true);
  const del = await fetch(`${edge.url}/publish/media/${encodePath(src)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${edge.token}` },
  });
  expect(await del.json()).toMatchObject({ deleted: true });
  const gone = await fetch(`${edge.url}/media/${encodePath(src)}`);
  expect(gone.status).toBe(404);
  expect((await gone.json()).error).toBe('NOT_FOUND');
});

test('bad paths, oversize files and a full show get 4xx JSON, and the worker keeps serving', async () => {
  for (const bad of ['..%2Fsecret', 'a/..%2F..%2Fb', '%2Fetc%2Fpasswd', 'a//b', 'a%5Cb', 'a%00b', 'x'.repeat(600), '%E0%A4%A']) {
    const res = await fetch(`${edge.url}/publish/media/${bad}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${edge.token}` },
      body: 'x',
    });
    expect([bad, res.status]).toEqual([bad, 400]);
    expect((await res.json()).error).toBe('BAD_MEDIA_PATH');
  }

  const tooBig = await upload('media/huge.wav', randomBytes(FILE_LIMIT + 1));
  expect(tooBig.status).toBe(413);
  expect((await tooBig.json()).error).toBe('MEDIA_TOO_BIG');

  // No content-length (a streamed body): refused while reading, not after; one under the cap is
  // stored whole (the Worker reads it and hands the root a body of known length).
  const streamedUpload = (src, parts) =>
    fetch(`${edge.url}/publish/media/${src}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${edge.token}` },
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
      duplex: 'half',
    });
  const streamed = await streamedUpload(
    'media/streamed.wav',
    Array.from({ length: 4 }, () => randomBytes(1024 * 1024)),
  );
  expect(streamed.status).toBe(413);
  expect((await streamed.json()).error).toBe('MEDIA_TOO_BIG');
  const parts = [randomBytes(1024 * 1024), randomBytes(300 * 1024)];
  const fits = await streamedUpload('media/streamed-ok.wav', parts);
  expect(fits.status).toBe(201);
  await fits.arrayBuffer();
  const back = await fetch(`${edge.url}/media/media/streamed-ok.wav`);
  expect(back.status).toBe(200);
  expect(sha(Buffer.from(await back.arrayBuffer()))).toBe(sha(Buffer.concat(parts)));
  const removed = await fetch(`${edge.url}/publish/media/media/streamed-ok.wav`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${edge.token}` },
  });
  expect(removed.status).toBeLessThan(300);
  await removed.arrayBuffer();

  const mismatch = await upload('media/bad-hash.png', randomBytes(10), { headers: { 'x-content-sha256': '0'.repeat(64) } });
  expect(mismatch.status).toBe(400);
  expect((await mismatch.json()).error).toBe('SHA256_MISMATCH');

  // The total cap: two files of 2 MiB fit, the third does not.
  const before = (await list()).bytes;
  const two = 2 * 1024 * 1024;
  expect((await upload('media/fill-1.wav', randomBytes(two))).status).toBe(201);
  if (before + 2 * two <= TOTAL_LIMIT) expect((await upload('media/fill-2.wav', randomBytes(two))).status).toBe(201);
  const full = await upload('media/fill-3.wav', randomBytes(two));
  expect(full.status).toBe(413);
  expect((await full.json()).error).toBe('MEDIA_QUOTA');
  expect((await list()).bytes).toBeLessThanOrEqual(TOTAL_LIMIT);

  const viewerPost = await fetch(`${edge.url}/media/media/fill-1.wav`, { method: 'POST', body: 'x' });
  expect(viewerPost.status).toBe(405);
  await viewerPost.arrayBuffer();

  // Still serving everything else.
  const ok = await fetch(`${edge.url}/media/media/fill-1.wav`);
  expect(ok.status).toBe(200);
  expect((await ok.arrayBuffer()).byteLength).toBe(two);
  expect((await (await fetch(`${edge.url}/healthz`)).json()).ok).toBe(true);
  expect((await fetch(`${edge.url}/publish/nothing-here`, { headers: { authorization: `Bearer ${edge.token}` } })).status).toBe(404);
});
