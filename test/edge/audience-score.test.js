// The engraved score on the edge (docs/reference/notation.md#the-score-on-the-audiences-phones): a
// show server mirroring to the worker on local workerd uploads the bar map and the phone pages of
// the part a view shows, once engraved, with the score's media; the edge serves them byte for byte
// as the venue does, and never a part no view shows. The edge's audience page, in real Chromium at
// a phone viewport, shows the part with its cursor on the beat, as the venue's page does. An edge
// whose per-file limit is smaller than a page gets what fits; each refusal is logged once.

/* global window, document */
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { openPage, waitInPage, control } from '../audience/support/browser.js';
import { startShow } from '../support/show.js';
import { CORPUS_XML, importInto, tempFolder } from '../support/notation-server.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { startEdge, waitFor } from './helpers.js';

let edge;
let browser;
let stop;
let folder;
let server;
let scoreFile;

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser());
  folder = await tempFolder();
  const { scorePath } = await importInto(path.join(CORPUS_XML, 'Dichterliebe01.xml'), folder.dir);
  const score = JSON.parse(await readFile(scorePath, 'utf8'));
  score.tempo = [{ at: { bar: 1 }, bpm: 150 }];
  score.view = { score: 'piano', text: 'Follow the piano' };
  await writeFile(scorePath, JSON.stringify(score));
  scoreFile = scorePath;
  server = await startShow({
    scorePath,
    autoplay: false,
    edgeUrl: edge.url,
    edgeToken: edge.token,
    notationCacheDir: path.join(folder.dir, 'cache'),
  });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await folder?.close();
  await stop?.();
});

const bytesOf = async (url) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};

test('the shown part is uploaded once engraved and served at the edge as at the venue; the others never', async () => {
  await server.notation.settled();
  const map = await (await fetch(`${server.audienceUrl}/media/notation/piano/phone.json`)).json();
  const files = ['notation/piano/phone.json', ...Array.from({ length: map.pages }, (_, i) => `notation/piano/phone/${i + 1}.svg`)];
  await waitFor(async () => (await fetch(`${edge.url}/media/notation/piano/phone/${map.pages}.svg`)).status === 200, {
    timeoutMs: 30_000,
    what: 'the last page on the edge',
  });
  await server.edge.mediaIdle();
  for (const rel of files) {
    const [venue, remote] = await Promise.all([bytesOf(`${server.audienceUrl}/media/${rel}`), bytesOf(`${edge.url}/media/${rel}`)]);
    expect([rel, venue.status, remote.status]).toEqual([rel, 200, 200]);
    expect(remote.body.equals(venue.body)).toBe(true);
    expect(remote.type?.split(';')[0]).toBe(venue.type?.split(';')[0]);
  }
  // What the edge holds: exactly the shown part's map and pages (the score has no other media).
  const list = await (await fetch(`${edge.url}/publish/media`, { headers: { authorization: `Bearer ${edge.token}` } })).json();
  expect(list.files.map((f) => f.src).sort()).toEqual([...files].sort());
  expect((await fetch(`${edge.url}/media/notation/voice/phone.json`)).status).toBe(404);
  expect(server.status().edge.media).toMatchObject({ uploaded: files.length, total: files.length, lastError: null });
}, 90_000);

test("the edge's audience page shows the part with the cursor on the beat", async () => {
  const { page, problems } = await openPage(browser, { deviceScaleFactor: 1 });
  await page.goto(`${edge.url}/`);
  await waitInPage(page, () => window.__tutti.score().loaded, undefined, 30_000);
  await waitInPage(page, () =>
    [...document.querySelectorAll('#sheet .slot:not([hidden]) img')].every((i) => i.complete && i.naturalWidth > 0),
  );
  expect(await page.evaluate(() => window.__tutti.score().part)).toBe('piano');
  await waitInPage(page, () => (window.__tutti.clock()?.total ?? 0) >= 5, undefined, 20_000);
  await control(server, 'POST', '/api/transport', { action: 'play' });
  await waitInPage(page, () => Number(document.getElementById('cursor').dataset.cursorBar) >= 6, undefined, 30_000);
  // The cursor's attributes are the bar:beat on screen, moved together on each beat.
  for (let i = 0; i < 5; i += 1) {
    const { cursor, shown } = await page.evaluate(() => ({
      cursor: `${document.getElementById('cursor').dataset.cursorBar}:${document.getElementById('cursor').dataset.cursorBeat}`,
      shown: `${document.getElementById('bar').textContent}:${document.getElementById('beat').textContent}`,
    }));
    expect(cursor).toBe(shown);
    await page.waitForTimeout(170);
  }
  const { moves } = await page.evaluate(() => window.__tutti.score());
  expect(moves.filter((m) => m.playing).length).toBeGreaterThan(8);
  await control(server, 'POST', '/api/transport', { action: 'stop' });
  expect(problems).toEqual([]);
  await page.close();
}, 90_000);

test("pages over the edge's per-file limit are not uploaded, and the refusal is logged once per page", async () => {
  const small = await startEdge({ vars: { MEDIA_MAX_FILE_BYTES: 6000 } });
  const other = await startShow({
    scorePath: scoreFile,
    autoplay: false,
    edgeUrl: small.url,
    edgeToken: small.token,
    notationCacheDir: path.join(folder.dir, 'cache'),
  });
  try {
    await other.notation.settled();
    const map = await (await fetch(`${other.audienceUrl}/media/notation/piano/phone.json`)).json();
    const refusals = () => other.log.recent().filter((e) => /over the edge's .* per file: remote viewers will not get it/.test(e.msg));
    await waitFor(() => refusals().length === map.pages, { timeoutMs: 30_000, what: 'a refusal per page' });
    await other.edge.mediaIdle();
    expect(refusals()[0].msg).toMatch(/^edge media: notation\/piano\/phone\/\d+\.svg is [\d.]+ KB, over the edge's 5\.9 KB per file/);
    // The bar map fits and is there; the pages are not.
    expect((await fetch(`${small.url}/media/notation/piano/phone.json`)).status).toBe(200);
    expect((await fetch(`${small.url}/media/notation/piano/phone/1.svg`)).status).toBe(404);
    expect(other.status().edge.media).toMatchObject({ uploaded: 1, total: 1 + map.pages });
    // Compared again (a new engraving, a reconnect): refused files are not logged a second time.
    other.edge.syncMedia();
    await other.edge.mediaIdle();
    expect(refusals()).toHaveLength(map.pages);
  } finally {
    await other.close();
    await small.stop();
  }
}, 90_000);
