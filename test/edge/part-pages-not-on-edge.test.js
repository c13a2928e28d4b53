// The musicians' part pages are on the venue listener only (docs/how-to/part-pages.md#part-pages;
// docs/explanation/threat-model.md): a venue server mirroring to a real edge (local workerd) serves /part/<key>/… to
// the tablets on its Wi-Fi, and the edge answers none of it — not the page, not the cue table,
// not the report, not the page's script under any path — while it serves the show as usual.

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { startEdge, waitFor } from './helpers.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let edge;
let server;

beforeAll(async () => {
  edge = await startEdge();
  server = await startShow({
    scorePath: fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url)),
    edgeUrl: edge.url,
    edgeToken: edge.token,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await edge?.stop();
});

test('the venue serves the part page under its key; the edge serves none of it', async () => {
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 15_000, what: 'the server to connect to the edge' });
  await waitFor(async () => (await (await fetch(`${edge.url}/healthz`)).json()).venue === 'live', {
    timeoutMs: 15_000,
    what: 'the edge to serve the show',
  });
  const key = server.partKey;
  const partFiles = Object.keys(JSON.parse(await readFile(join(DIST, 'part', 'manifest.json'), 'utf8')).files);
  const script = partFiles.find((f) => f.endsWith('.js'));
  const paths = [
    `/part/${key}/`,
    `/part/${key}`,
    `/part/${key}/parts.json`,
    ...partFiles.map((f) => `/part/${key}/${f}`),
    `/${script}`,
    '/part/',
    '/part',
    `/part/${key}/ws`,
    `/part/${key}/sse`,
    `/part/${key}/poll`,
    `/part/${key}/time`,
  ];

  // On the venue listener: the page, its files and the cue table are there behind the key.
  for (const path of [
    `/part/${key}/`,
    `/part/${key}/parts.json`,
    `/part/${key}/time`,
    `/part/${key}/poll`,
    ...partFiles.filter((f) => f !== 'index.html').map((f) => `/part/${key}/${f}`),
  ]) {
    expect([path, (await fetch(`${server.audienceUrl}${path}`)).status]).toEqual([path, 200]);
  }
  // On the edge: nothing of it (its audience page still answers, so the edge is serving).
  expect((await fetch(`${edge.url}/`)).status).toBe(200);
  for (const path of paths) {
    const res = await fetch(`${edge.url}${path}`, { redirect: 'manual' });
    const body = await res.text();
    expect([path, res.status]).toEqual([path, 404]);
    expect(body).not.toContain('Pick your part');
  }
  const report = await fetch(`${edge.url}/part/${key}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'abcdefgh12', part: 'vln' }),
  });
  expect(report.status).toBeGreaterThanOrEqual(400);
  // The folder the edge deploys as static assets (edge-worker/wrangler.jsonc: ../dist/audience) holds no part-page file.
  const deployed = [
    ...(await readdir(join(DIST, 'audience'))),
    ...(await readdir(join(DIST, 'audience', 'assets'))).map((f) => `assets/${f}`),
  ];
  // (The keep-awake video is the audience's own file, byte for byte: shared, not the part page's.)
  const ownFiles = partFiles.filter((f) => f.startsWith('assets/part-'));
  expect(ownFiles.length).toBe(2); // its script and its styles
  expect(deployed.filter((f) => ownFiles.some((p) => f.startsWith(p)))).toEqual([]);
  expect(deployed.some((f) => f.startsWith('assets/part-'))).toBe(false);
}, 90_000);
