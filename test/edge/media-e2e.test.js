// End to end for score media: a show server mirroring to the worker on local workerd uploads
// the score's images and audio, and the edge's /media/<src> serves the same bytes as the venue.
// A score loaded while the edge is down is uploaded once it is back; unchanged files are not
// sent twice.

import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { startEdge, waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';

const TIDAL = fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url));
const DEMO = fileURLToPath(new URL('../../scores/demo.score.json', import.meta.url));

let edge;
let server;

beforeAll(async () => {
  edge = await startEdge({ port: await freePort() });
  // As `tutti serve --edge`: server.js hands the mirror the current score's folder and assets.
  server = await startShow({ scorePath: TIDAL, edgeUrl: edge.url, edgeToken: edge.token });
}, 90_000);

afterAll(async () => {
  await server?.close();
  await edge?.stop();
});

const assets = () => server.show.engine.score().assets;
const mediaStatus = () => server.status().edge.media;

/** The same file from the venue and from the edge: status, type and bytes. */
async function bothCopies(src) {
  const path = src.split('/').map(encodeURIComponent).join('/');
  const [local, remote] = await Promise.all([fetch(`${server.audienceUrl}/media/${path}`), fetch(`${edge.url}/media/${path}`)]);
  return {
    local: { status: local.status, type: local.headers.get('content-type'), body: Buffer.from(await local.arrayBuffer()) },
    remote: { status: remote.status, type: remote.headers.get('content-type'), body: Buffer.from(await remote.arrayBuffer()) },
  };
}

test("the score's image and audio files on the edge are byte for byte the venue's", async () => {
  const kinds = new Set(assets().map((a) => a.kind));
  expect(kinds).toEqual(new Set(['audio', 'image']));
  await waitFor(() => mediaStatus()?.uploaded === assets().length, {
    timeoutMs: 20_000,
    what: `the edge to hold ${assets().length} files`,
  });
  expect(mediaStatus()).toMatchObject({ uploaded: 3, total: 3, state: 'idle', lastError: null });
  expect(mediaStatus().bytes).toBe(assets().reduce((sum, a) => sum + a.bytes, 0));

  for (const asset of assets()) {
    const { local, remote } = await bothCopies(asset.src);
    expect([asset.src, local.status, remote.status]).toEqual([asset.src, 200, 200]);
    expect(remote.type).toBe(local.type);
    expect(remote.body.length).toBe(asset.bytes);
    expect(remote.body.equals(local.body)).toBe(true);
  }
  expect(server.log.recent().some((e) => /edge media: 3\/3 on the edge/.test(e.msg))).toBe(true);

  // Compare again (as on every reconnect; setMedia with the same source triggers a pass): nothing is uploaded a second time.
  const uploadsBefore = server.log.recent().filter((e) => e.msg.startsWith('edge media: uploading')).length;
  server.edge.setMedia(() => ({ dir: server.show.source().dir, assets: server.show.engine.score().assets ?? [] }));
  await server.edge.mediaIdle();
  expect(server.log.recent().filter((e) => e.msg.startsWith('edge media: uploading')).length).toBe(uploadsBefore);
  expect(mediaStatus()).toMatchObject({ uploaded: 3, total: 3 });
});

test('a score loaded while the edge is down gets its media there once the edge is back', async () => {
  await edge.pause();
  const res = await fetch(`${server.controlUrl}/api/score`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token' },
    body: JSON.stringify({ path: DEMO }),
  });
  expect(res.status).toBe(200);
  await waitFor(() => mediaStatus()?.state === 'retrying', { timeoutMs: 10_000, what: 'the media sync to notice the edge is down' });
  expect(mediaStatus().lastError).toMatch(/^SYNC: /);
  // The state stream is untouched by the failing uploads: the venue keeps publishing.
  const seq = server.status().seq;
  const play = await fetch(`${server.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token' },
    body: JSON.stringify({ action: 'play' }),
  });
  expect(play.status).toBe(200);
  await waitFor(() => server.status().seq > seq, { what: 'the show to keep playing' });

  await edge.resume();
  await waitFor(() => mediaStatus()?.uploaded === 1 && mediaStatus()?.total === 1, {
    timeoutMs: 30_000,
    what: "the demo score's media on the edge",
  });
  const [bell] = assets();
  const { local, remote } = await bothCopies(bell.src);
  expect(remote.status).toBe(200);
  expect(remote.body.equals(local.body)).toBe(true);
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the uplink to reconnect' });
});
