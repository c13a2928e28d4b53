// The replay's media route (docs/how-to/record-and-replay.md#replaying-a-record): GET /api/records/<id>/media/<path>
// on a real server serves a file the record's audience had — the image of a view, the sound of
// a cue — from the folder of the score the record played, with the token, and refuses a path
// that climbs, an absolute one, a link out of the score's folder and a file that is gone.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';
import { waitFor } from '../../support/clients.js';
import { writeReplayMediaScore } from '../../support/replay-media-score.js';

const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-record-media-'));
const outside = mkdtempSync(path.join(os.tmpdir(), 'tutti-outside-'));
const score = writeReplayMediaScore();
/** A second score, loaded mid-show: the same media path, other bytes. */
const second = writeReplayMediaScore();
const SECOND_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>';
let recordId;
let server;

const get = (p, { auth = true, headers = {} } = {}) =>
  fetch(`${server.controlUrl}${p}`, { headers: { ...(auth ? { authorization: `Bearer ${server.token}` } : {}), ...headers } });

/** A request with its path sent as written (fetch would resolve `..` before sending it). */
function rawGet(rawPath) {
  const url = new URL(server.controlUrl);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: url.hostname, port: url.port, path: rawPath, headers: { authorization: `Bearer ${server.token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
  });
}

beforeAll(async () => {
  // A real show plays the score with its image (bar 1) and its swell (bar 3), and is recorded.
  const show = await startShow({ scorePath: score.file, autoplay: false, recordDir });
  await fetch(`${show.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: `Bearer ${show.token}` },
    body: JSON.stringify({ action: 'play' }),
  });
  await waitFor(() => show.status().position.bar >= 4, 15_000, 'bar 4');
  writeFileSync(path.join(second.dir, 'media/lines.svg'), SECOND_SVG);
  const loaded = await fetch(`${show.controlUrl}/api/score`, {
    method: 'POST',
    headers: { authorization: `Bearer ${show.token}` },
    body: JSON.stringify({ path: second.file }),
  });
  expect(loaded.status).toBe(200);
  recordId = show.recorder.id;
  await show.close();
  server = await startShow({ autoplay: false, recordDir });
}, 30_000);

afterAll(async () => {
  await server?.close();
  for (const dir of [recordDir, outside, score.dir, second.dir, `${score.dir}-moved`]) rmSync(dir, { recursive: true, force: true });
});

test('the image and the sound the record named: their bytes, type and validators; the token is needed', async () => {
  const image = await get(`/api/records/${recordId}/media/media/lines.svg?score=0`);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/svg+xml');
  expect(image.headers.get('cache-control')).toBe('private, no-cache');
  expect(image.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Buffer.from(await image.arrayBuffer())).toEqual(readFileSync(path.join(score.dir, 'media/lines.svg')));

  const sound = await get(`/api/records/${recordId}/media/media/swell.wav?score=0`);
  expect(sound.status).toBe(200);
  expect(sound.headers.get('content-type')).toBe('audio/wav');
  expect(Buffer.from(await sound.arrayBuffer())).toEqual(readFileSync(path.join(score.dir, 'media/swell.wav')));
  // Revalidation: the same file, unchanged, is a 304.
  const etag = sound.headers.get('etag');
  expect((await get(`/api/records/${recordId}/media/media/swell.wav?score=0`, { headers: { 'if-none-match': etag } })).status).toBe(304);

  // Which score's folder: ?score=N counts the record's `open` and `score` entries; none → the last.
  const svg = async (query) => (await get(`/api/records/${recordId}/media/media/lines.svg${query}`)).text();
  expect(await svg('?score=0')).toBe(readFileSync(path.join(score.dir, 'media/lines.svg'), 'utf8'));
  expect(await svg('?score=1')).toBe(SECOND_SVG);
  expect(await svg('')).toBe(SECOND_SVG);

  const anonymous = await get(`/api/records/${recordId}/media/media/lines.svg`, { auth: false });
  expect(anonymous.status).toBe(401);
});

test('an unknown record, a file the record never named, a bad query, a climbing or absolute path', async () => {
  const expectError = async (res, status, error) =>
    expect({ status: res.status, error: (await res.json()).error }).toEqual({ status, error });
  await expectError(await get('/api/records/20990101-000000-zzzz/media/media/lines.svg'), 404, 'NO_SUCH_RECORD');
  await expectError(await get(`/api/records/${recordId}/media/replay-media.score.json`), 404, 'NO_SUCH_MEDIA');
  await expectError(await get(`/api/records/${recordId}/media/media/lines.svg?score=7`), 404, 'NO_SUCH_MEDIA');
  await expectError(await get(`/api/records/${recordId}/media/media/lines.svg?score=x`), 400, 'BAD_QUERY');
  await expectError(await get(`/api/records/${recordId}/media/media/lines.svg?path=x`), 400, 'BAD_QUERY');
  const badInputBefore = await badInputCount();
  for (const p of ['..%2F..%2Fetc%2Fpasswd', 'media%2F..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', '/etc/passwd', 'media//lines.svg']) {
    await expectError(await get(`/api/records/${recordId}/media/${p}`), 400, 'BAD_MEDIA_PATH');
  }
  expect(await badInputCount()).toBe(badInputBefore + 5);
  // Sent as written: the router never lets `..` reach a file.
  expect([400, 404]).toContain(await rawGet(`/api/records/${recordId}/media/../../../../etc/passwd`));
  expect([400, 404]).toContain(await rawGet(`/api/records/${recordId}/media/media/../../../etc/passwd`));
});

test('a link out of the score folder is refused; the score folder moved away is a 404', async () => {
  const lines = path.join(score.dir, 'media/lines.svg');
  const kept = readFileSync(lines);
  writeFileSync(path.join(outside, 'secret.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><text>secret</text></svg>');
  rmSync(lines);
  symlinkSync(path.join(outside, 'secret.svg'), lines);
  const linksBefore = await badInputCount('media_link');
  const linked = await get(`/api/records/${recordId}/media/media/lines.svg?score=0`);
  expect(linked.status).toBe(404);
  expect(await linked.json()).toMatchObject({ error: 'NO_SUCH_MEDIA', message: expect.stringMatching(/outside the score's folder/) });
  expect(await badInputCount('media_link')).toBe(linksBefore + 1);
  rmSync(lines);
  writeFileSync(lines, kept);
  expect((await get(`/api/records/${recordId}/media/media/lines.svg?score=0`)).status).toBe(200);

  renameSync(score.dir, `${score.dir}-moved`);
  const gone = await get(`/api/records/${recordId}/media/media/swell.wav?score=0`);
  expect(gone.status).toBe(404);
  expect(await gone.json()).toMatchObject({ error: 'NO_SUCH_MEDIA', message: expect.stringMatching(/no longer next to the score/) });
});

/** tutti_bad_input_total{source} from /metrics. */
async function badInputCount(source = 'http_body') {
  const text = await (await get('/metrics')).text();
  const m = new RegExp(`^tutti_bad_input_total\\{source="${source}"\\} (\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}
